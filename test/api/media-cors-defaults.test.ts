import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * Browser clients load avatars, headers and media with `crossorigin` (to read their colours on a
 * canvas); without `Access-Control-Allow-Origin` they load them twice. And accounts without an
 * avatar or header get proper default images at Mastodon's paths.
 */
describe("public files: CORS and the default avatar and header", () => {
  let s: TestServer;
  let alice: TestUser;
  const png = (w: number, h: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers: { origin: "https://client.example", ...headers } });
    return { res, data: Buffer.from(await res.arrayBuffer()) };
  };

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
  });
  after(() => s.close());

  it("sends Access-Control-Allow-Origin: * on uploaded media, previews, avatars and headers", async () => {
    const f = new FormData();
    f.append("file", new Blob([new Uint8Array(await png(300, 200))]), "a.png");
    const media = await s.request("/api/v2/media", { method: "POST", token: alice.token, multipart: f });
    assert.equal(media.status, 200);
    const profile = new FormData();
    profile.append("avatar", new Blob([new Uint8Array(await png(500, 500))], { type: "image/png" }), "me.png");
    profile.append("header", new Blob([new Uint8Array(await png(1500, 500))], { type: "image/png" }), "h.png");
    const me = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      multipart: profile,
    });
    assert.equal(me.status, 200);
    for (const url of [media.body.url, media.body.preview_url, me.body.avatar, me.body.header]) {
      assert.match(url, /\/system\//);
      const { res } = await get(`${s.url}${new URL(url).pathname}`);
      assert.equal(res.status, 200, url);
      assert.equal(res.headers.get("access-control-allow-origin"), "*", url);
    }
    const ranged = await get(`${s.url}${new URL(media.body.url).pathname}`, { range: "bytes=0-9" });
    assert.equal(ranged.res.status, 206);
    assert.equal(ranged.res.headers.get("access-control-allow-origin"), "*");
  });

  it("serves a silhouette avatar and a plain header at Mastodon's paths, with CORS", async () => {
    const fresh = (await s.request("/api/v1/accounts/verify_credentials", { token: (await s.createUser("bob")).token }))
      .body;
    const base = s.ctx.config.baseUrl;
    assert.equal(fresh.avatar, `${base}/avatars/original/missing.png`);
    assert.equal(fresh.avatar_static, `${base}/avatars/original/missing.png`);
    assert.equal(fresh.header, `${base}/headers/original/missing.png`);
    assert.equal(fresh.header_static, `${base}/headers/original/missing.png`);

    const avatar = await get(`${s.url}/avatars/original/missing.png`);
    assert.equal(avatar.res.status, 200);
    assert.equal(avatar.res.headers.get("content-type"), "image/png");
    assert.equal(avatar.res.headers.get("access-control-allow-origin"), "*");
    const a = await sharp(avatar.data).raw().toBuffer({ resolveWithObject: true });
    assert.equal(a.info.width, 400);
    assert.equal(a.info.height, 400);
    const pixel = (x: number, y: number) => {
      const at = (y * a.info.width + x) * a.info.channels;
      return [...a.data.subarray(at, at + 3)].join(",");
    };
    // A figure on a background: the head and shoulders differ from the corners and the gap between.
    const background = pixel(5, 5);
    assert.equal(pixel(394, 5), background);
    assert.equal(pixel(200, 240), background, "a gap between head and shoulders");
    assert.notEqual(pixel(200, 150), background, "a head");
    assert.notEqual(pixel(200, 380), background, "shoulders");
    assert.equal(pixel(10, 390), background, "rounded shoulders");

    const header = await get(`${s.url}/headers/original/missing.png`);
    assert.equal(header.res.status, 200);
    assert.equal(header.res.headers.get("access-control-allow-origin"), "*");
    const h = await sharp(header.data).stats();
    assert.equal((await sharp(header.data).metadata()).width, 1500);
    assert.ok(h.isOpaque);
    assert.ok(
      h.channels.every((c) => c.min === c.max),
      "a plain header",
    );
  });
});
