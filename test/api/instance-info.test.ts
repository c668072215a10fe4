import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  publishTermsOfService,
  setExtendedDescription,
  setPrivacyPolicy,
} from "../../src/services/instance/site-texts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe("instance sub-resources and operator settings", () => {
  let s: TestServer;
  before(async () => {
    // No caching, so each test sees the settings it has just written.
    s = await startTestServer({ INSTANCE_STATS_CACHE_SECONDS: "0", SITE_CONTACT_EMAIL: "ops@example.com" });
  });
  after(() => s.close());

  it("lists the rules in order with id, text and hint, in /rules and in both instance versions", async () => {
    const at = new Date().toISOString();
    await s.ctx.repos.settings.addRule({ id: "20", text: "Be kind", hint: "No harassment", position: 2, at });
    await s.ctx.repos.settings.addRule({ id: "10", text: "No spam", hint: "", position: 1, at });
    const r = await s.request("/api/v1/instance/rules");
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.map((x: { id: string; text: string; hint: string }) => [x.id, x.text, x.hint]),
      [
        ["10", "No spam", ""],
        ["20", "Be kind", "No harassment"],
      ],
    );
    assert.equal(typeof r.body[0].id, "string");
    assert.deepEqual(
      (await s.request("/api/v2/instance")).body.rules.map((x: { id: string }) => x.id),
      ["10", "20"],
    );
    assert.deepEqual(
      (await s.request("/api/v1/instance")).body.rules.map((x: { id: string }) => x.id),
      ["10", "20"],
    );
  });

  it("serves an empty, undated extended description until the operator writes one, as Mastodon does", async () => {
    const d = await s.request("/api/v1/instance/extended_description");
    assert.equal(d.status, 200);
    assert.deepEqual(d.body, { updated_at: null, content: "" });
    const before = Date.now();
    await setExtendedDescription(s.ctx, "<p>Our own words</p>");
    const own = await s.request("/api/v1/instance/extended_description");
    assert.equal(own.body.content, "<p>Our own words</p>");
    assert.match(own.body.updated_at, ISO_RE);
    assert.ok(Date.parse(own.body.updated_at) >= before - 1000);
    // Clearing it goes back to nothing, not to some default.
    await setExtendedDescription(s.ctx, "");
    assert.deepEqual((await s.request("/api/v1/instance/extended_description")).body, {
      updated_at: null,
      content: "",
    });
  });

  it("serves a default privacy policy naming the contact, then the operator's", async () => {
    const d = await s.request("/api/v1/instance/privacy_policy");
    assert.equal(d.status, 200);
    assert.match(d.body.updated_at, ISO_RE);
    assert.match(d.body.content, /<h1>/);
    assert.match(d.body.content, /ops@example\.com/);
    await setPrivacyPolicy(s.ctx, "<p>We keep nothing.</p>");
    const own = await s.request("/api/v1/instance/privacy_policy");
    assert.equal(own.body.content, "<p>We keep nothing.</p>");
    assert.notEqual(own.body.updated_at, d.body.updated_at);
  });

  it("answers 404 for terms of service until some are published, then the current version", async () => {
    const none = await s.request("/api/v1/instance/terms_of_service");
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { error: "Record not found" });
    assert.equal((await s.request("/api/v2/instance")).body.configuration.urls.terms_of_service, null);

    await publishTermsOfService(s.ctx, { effectiveDate: "2025-01-01", content: "<p>Old terms</p>" });
    await publishTermsOfService(s.ctx, { effectiveDate: "2026-01-01", content: "<p>Current terms</p>" });
    await publishTermsOfService(s.ctx, { effectiveDate: "2999-01-01", content: "<p>Future terms</p>" });
    const cur = await s.request("/api/v1/instance/terms_of_service");
    assert.equal(cur.status, 200);
    assert.deepEqual(cur.body, {
      effective_date: "2026-01-01",
      effective: true,
      content: "<p>Current terms</p>",
      succeeded_by: "2999-01-01",
    });
    const old = await s.request("/api/v1/instance/terms_of_service/2025-01-01");
    assert.equal(old.body.content, "<p>Old terms</p>");
    assert.equal(old.body.succeeded_by, "2026-01-01");
    const future = await s.request("/api/v1/instance/terms_of_service/2999-01-01");
    assert.equal(future.body.effective, false);
    assert.equal((await s.request("/api/v1/instance/terms_of_service/2024-05-05")).status, 404);
    assert.equal((await s.request("/api/v1/instance/terms_of_service/yesterday")).status, 404);
    const urls = (await s.request("/api/v2/instance")).body.configuration.urls;
    assert.equal(urls.terms_of_service, `${s.ctx.config.baseUrl}/terms-of-service`);
  });

  it("has no translation languages and no public domain blocks", async () => {
    const t = await s.request("/api/v1/instance/translation_languages");
    assert.equal(t.status, 200);
    assert.deepEqual(t.body, {});
    // Without a translation backend, translating is 404 (Mastodon's NotConfiguredError).
    const reader = await s.createUser("translationreader");
    const { body: status } = await s.request("/api/v1/statuses", {
      method: "POST",
      token: reader.token,
      json: { status: "Guten Tag", language: "de" },
    });
    const tr = await s.request(`/api/v1/statuses/${status.id}/translate`, {
      method: "POST",
      token: reader.token,
      json: { lang: "en" },
    });
    assert.deepEqual([tr.status, tr.body], [404, { error: "Not Found" }]);
    // Moderated servers are published only when show_domain_blocks allows (default: to nobody).
    assert.equal((await s.request("/api/v1/instance/domain_blocks")).status, 404);
    await s.ctx.repos.settings.set("show_domain_blocks", "all");
    const d = await s.request("/api/v1/instance/domain_blocks");
    assert.equal(d.status, 200);
    assert.deepEqual(d.body, []);
    await s.ctx.repos.settings.set("show_domain_blocks", "disabled");
  });

  it("lists the languages a post may use, with English names", async () => {
    const r = await s.request("/api/v1/instance/languages");
    assert.equal(r.status, 200);
    const byCode = new Map((r.body as { code: string; name: string }[]).map((l) => [l.code, l.name]));
    assert.ok(byCode.size > 150);
    assert.equal(byCode.get("en"), "English");
    assert.equal(byCode.get("de"), "German");
    assert.equal(byCode.get("ja"), "Japanese");
    assert.ok(byCode.has("tok"));
    for (const [code, name] of byCode) assert.ok(name.length > 0 && name !== code, code);
  });

  it("takes title, description, contact and banner from site settings over the environment", async () => {
    const settings = s.ctx.repos.settings;
    await settings.set("site_title", "Renamed");
    await settings.set("site_short_description", "Now with settings");
    await settings.set("site_contact_email", "contact@example.org");
    await settings.set("status_page_url", "https://status.example.org");
    await settings.set("thumbnail", {
      url: "https://cdn.example.org/banner.png",
      blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
    });
    await s.createUser("chosen");
    await settings.set("site_contact_username", "@chosen");
    const v2 = (await s.request("/api/v2/instance")).body;
    assert.equal(v2.title, "Renamed");
    assert.equal(v2.description, "Now with settings");
    assert.equal(v2.contact.email, "contact@example.org");
    assert.equal(v2.contact.account.username, "chosen");
    assert.equal(v2.configuration.urls.status, "https://status.example.org");
    assert.deepEqual(v2.thumbnail, {
      url: "https://cdn.example.org/banner.png",
      blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
    });
    const v1 = (await s.request("/api/v1/instance")).body;
    assert.equal(v1.title, "Renamed");
    assert.equal(v1.email, "contact@example.org");
    assert.equal(v1.thumbnail, "https://cdn.example.org/banner.png");
    const ni = (await s.request("/nodeinfo/2.0")).body;
    assert.equal(ni.metadata.nodeName, "Renamed");
    assert.equal(ni.metadata.nodeDescription, "Now with settings");
  });

  it("has no contact account when there is no Owner and none is chosen", async () => {
    await s.ctx.repos.settings.set("site_contact_username", "nobody_here");
    assert.equal((await s.request("/api/v2/instance")).body.contact.account, null);
    assert.equal((await s.request("/api/v1/instance")).body.contact_account, null);
  });

  it("hides peers and activity (404) when the operator turns them off", async () => {
    await s.ctx.repos.settings.set("peers_api_enabled", false);
    await s.ctx.repos.settings.set("activity_api_enabled", false);
    assert.equal((await s.request("/api/v1/instance/peers")).status, 404);
    assert.equal((await s.request("/api/v1/instance/activity")).status, 404);
    await s.ctx.repos.settings.set("peers_api_enabled", true);
    await s.ctx.repos.settings.set("activity_api_enabled", true);
    assert.equal((await s.request("/api/v1/instance/peers")).status, 200);
    assert.equal((await s.request("/api/v1/instance/activity")).status, 200);
  });
});
