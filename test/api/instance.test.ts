import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const VERSION_RE = /^4\.5\.0 \(compatible; Gannet 0\.1\.0\)$/;
const BASE83 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~";
const decode83 = (s: string) => [...s].reduce((n, ch) => n * 83 + BASE83.indexOf(ch), 0);

describe("instance v2 and v1", () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({
      SITE_TITLE: "Gannet Test",
      SITE_DESCRIPTION: "A server for tests",
      SITE_CONTACT_EMAIL: "admin@example.com",
    });
    base = s.ctx.config.baseUrl;
    await s.createUser("someone");
    await s.createUser("theowner", { role: "Owner" });
  });
  after(() => s.close());

  it("answers GET /api/v2/instance with the identity of the server", async () => {
    const r = await s.request("/api/v2/instance");
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /^application\/json/);
    assert.match(r.headers.get("cache-control") ?? "", /public/);
    const b = r.body;
    assert.equal(b.domain, s.ctx.config.localDomain);
    assert.equal(b.title, "Gannet Test");
    assert.match(b.version, VERSION_RE);
    assert.equal(b.description, "A server for tests");
    assert.match(b.source_url, /^https?:\/\//);
    assert.equal(typeof b.usage.users.active_month, "number");
    assert.deepEqual(b.languages, ["en"]);
    assert.deepEqual(b.api_versions, { mastodon: 7 });
    assert.equal(b.contact.email, "admin@example.com");
    assert.deepEqual(b.rules, []);
  });

  it("describes the default banner with a blurhash of that image and both sizes", async () => {
    const { thumbnail } = (await s.request("/api/v2/instance")).body;
    assert.equal(thumbnail.url, `${base}/instance/banner.png`);
    assert.equal(thumbnail.versions["@1x"], `${base}/instance/banner.png`);
    assert.equal(thumbnail.versions["@2x"], `${base}/instance/banner@2x.png`);
    assert.match(thumbnail.blurhash, /^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{28}$/);

    const one = await fetch(`${s.url}/instance/banner.png`);
    assert.equal(one.status, 200);
    assert.equal(one.headers.get("content-type"), "image/png");
    const png = Buffer.from(await one.arrayBuffer());
    const meta = await sharp(png).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ["png", 1200, 630]);
    const two = await sharp(
      Buffer.from(await (await fetch(`${s.url}/instance/banner@2x.png`)).arrayBuffer()),
    ).metadata();
    assert.deepEqual([two.width, two.height], [2400, 1260]);

    // The blurhash's average colour (its DC component) is close to the banner's mean colour.
    const dc = decode83(thumbnail.blurhash.slice(2, 6));
    const stats = await sharp(png).stats();
    const mean = stats.channels.slice(0, 3).map((c) => c.mean);
    const hashed = [(dc >> 16) & 255, (dc >> 8) & 255, dc & 255];
    for (let i = 0; i < 3; i++)
      assert.ok(Math.abs(mean[i] - hashed[i]) < 40, `channel ${i}: ${mean[i]} vs ${hashed[i]}`);
  });

  it("lists icons that exist at their announced sizes", async () => {
    const { icon } = (await s.request("/api/v2/instance")).body;
    assert.ok(icon.length >= 4);
    for (const i of icon as { src: string; size: string }[]) {
      assert.match(i.size, /^\d+x\d+$/);
      assert.ok(i.src.startsWith(`${base}/instance/`));
    }
    const largest = icon.at(-1) as { src: string; size: string };
    const res = await fetch(`${s.url}${new URL(largest.src).pathname}`);
    assert.equal(res.status, 200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    assert.equal(`${meta.width}x${meta.height}`, largest.size);
    assert.equal((await fetch(`${s.url}/instance/icon-37.png`)).status, 404);
  });

  it("gives the configuration urls, limits and a usable VAPID key", async () => {
    const { configuration: c } = (await s.request("/api/v2/instance")).body;
    assert.equal(c.urls.streaming, base.replace(/^http/, "ws"));
    assert.match(c.urls.streaming, /^wss?:\/\//);
    assert.equal(c.urls.status, null);
    assert.equal(c.urls.about, `${base}/about`);
    assert.equal(c.urls.privacy_policy, `${base}/privacy-policy`);
    assert.equal(c.urls.terms_of_service, null);
    const key = Buffer.from(c.vapid.public_key, "base64url");
    assert.equal(key.length, 65);
    assert.equal(key[0], 4);
    assert.deepEqual(c.accounts, {
      max_featured_tags: 10,
      max_pinned_statuses: 5,
      max_display_name_length: 30,
      max_note_length: 500,
      max_avatar_description_length: 150,
      max_header_description_length: 150,
      max_profile_fields: 4,
      profile_field_name_limit: 255,
      profile_field_value_limit: 255,
    });
    assert.deepEqual(c.statuses, { max_characters: 500, max_media_attachments: 4, characters_reserved_per_url: 23 });
    assert.equal(c.media_attachments.description_limit, 1500);
    assert.equal(c.media_attachments.image_size_limit, 16 * 1024 * 1024);
    assert.equal(c.media_attachments.image_matrix_limit, 33_177_600);
    assert.equal(c.media_attachments.video_size_limit, 99 * 1024 * 1024);
    assert.equal(c.media_attachments.video_matrix_limit, 8_294_400);
    assert.equal(c.media_attachments.video_frame_rate_limit, 120);
    for (const t of ["image/jpeg", "image/png", "image/webp", "video/mp4", "audio/mpeg"]) {
      assert.ok(c.media_attachments.supported_mime_types.includes(t), t);
    }
    assert.deepEqual(c.polls, {
      max_options: 4,
      max_characters_per_option: 50,
      min_expiration: 300,
      max_expiration: 2_629_746,
    });
    assert.deepEqual(c.translation, { enabled: false });
    assert.equal(c.limited_federation, false);
    for (const feed of ["live_feeds", "hashtag_feeds", "trending_link_feeds"]) {
      assert.deepEqual(c.timelines_access[feed], { local: "public", remote: "public" });
    }
  });

  it("keeps the VAPID key pair in site settings, the same on every call", async () => {
    const one = (await s.request("/api/v2/instance")).body.configuration.vapid.public_key;
    const stored = await s.ctx.repos.settings.get<{ publicKey: string; privateKey: string }>("vapid_keys");
    assert.equal(stored?.publicKey, one);
    assert.equal(Buffer.from(stored?.privateKey ?? "", "base64url").length, 32);
  });

  it("shows the Owner as the contact account", async () => {
    const { contact } = (await s.request("/api/v2/instance")).body;
    assert.equal(contact.account.username, "theowner");
    assert.equal(contact.account.acct, "theowner");
    const v1 = (await s.request("/api/v1/instance")).body;
    assert.equal(v1.contact_account.username, "theowner");
  });

  it("answers GET /api/v1/instance with the V1::Instance shape", async () => {
    const r = await s.request("/api/v1/instance");
    assert.equal(r.status, 200);
    const b = r.body;
    assert.equal(b.uri, s.ctx.config.localDomain);
    assert.equal(b.title, "Gannet Test");
    assert.equal(b.short_description, "A server for tests");
    assert.equal(b.description, "A server for tests");
    assert.equal(b.email, "admin@example.com");
    assert.match(b.version, VERSION_RE);
    assert.equal(b.urls.streaming_api, base.replace(/^http/, "ws"));
    assert.equal(b.stats.user_count, 2);
    assert.equal(b.stats.status_count, 0);
    assert.equal(b.stats.domain_count, 0);
    assert.equal(b.thumbnail, `${base}/instance/banner.png`);
    assert.deepEqual(b.languages, ["en"]);
    assert.equal(b.registrations, true);
    assert.equal(b.approval_required, false);
    assert.equal(b.invites_enabled, false);
    assert.deepEqual(b.configuration.accounts, { max_featured_tags: 10 });
    assert.equal(b.configuration.statuses.max_characters, 500);
    assert.equal(b.configuration.media_attachments.description_limit, undefined);
    assert.equal(b.configuration.media_attachments.image_matrix_limit, 33_177_600);
    assert.equal(b.configuration.polls.max_options, 4);
    assert.deepEqual(b.rules, []);
  });

  it("tolerates trailing slashes", async () => {
    for (const p of ["/api/v1/instance/", "/api/v2/instance/", "/api/v1/instance/rules/", "/api/v1/instance/peers/"]) {
      assert.equal((await s.request(p)).status, 200, p);
    }
  });

  it("ignores a token, valid or not", async () => {
    const user = await s.createUser("tokenholder");
    assert.equal((await s.request("/api/v2/instance", { token: user.token })).status, 200);
    assert.equal((await s.request("/api/v2/instance", { token: "not-a-token" })).status, 200);
    assert.equal((await s.request("/api/v1/instance/rules", { token: "not-a-token" })).status, 200);
  });

  it("sends CORS headers, including on preflight", async () => {
    const r = await s.request("/api/v2/instance", { headers: { origin: "https://client.example" } });
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
    const pre = await fetch(`${s.url}/api/v2/instance`, {
      method: "OPTIONS",
      headers: { origin: "https://client.example", "access-control-request-method": "GET" },
    });
    assert.ok(pre.status === 204 || pre.status === 200);
    assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  });

  it("reuses its usage numbers for a while (INSTANCE_STATS_CACHE_SECONDS, default 60)", async () => {
    const before = (await s.request("/api/v1/instance")).body.stats.user_count;
    await s.createUser("latecomer");
    assert.equal((await s.request("/api/v1/instance")).body.stats.user_count, before);
  });
});
