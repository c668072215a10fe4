import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { purgeRemoteMediaCache, queueRemoteMedia } from "../../src/services/media/remote-cache.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** A loopback "remote server" serving images, counting requests by path. */
async function startImageHost() {
  const png = async (w: number, h: number, color: string) =>
    sharp({ create: { width: w, height: h, channels: 3, background: color } })
      .png()
      .toBuffer();
  const files: Record<string, Buffer> = {
    "/photo.png": await png(1600, 1200, "#aa3300"),
    "/avatar.png": await png(600, 600, "#00aa33"),
    "/header.png": await png(2000, 600, "#3300aa"),
  };
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = files[path];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/png" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hits: (path: string) => hits.get(path) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type ImageHost = Awaited<ReturnType<typeof startImageHost>>;

/** A remote account with an avatar and header, and a post of it with one image, stored as federation stores them. */
async function seedRemote(s: TestServer, host: ImageHost, visibility = "public") {
  const now = new Date().toISOString();
  const accountId = s.ctx.ids.next();
  const username = `bird${accountId.slice(-6)}`;
  await s.ctx.repos.accounts.insert({
    id: accountId,
    username,
    domain: "remote.example",
    uri: `https://remote.example/users/${username}`,
    url: `https://remote.example/@${username}`,
    avatar_remote_url: `${host.url}/avatar.png`,
    header_remote_url: `${host.url}/header.png`,
    created_at: now,
    updated_at: now,
    fetched_at: now,
  });
  const statusId = s.ctx.ids.next();
  await s.ctx.repos.statuses.insert({
    id: statusId,
    uri: `https://remote.example/users/${username}/statuses/1`,
    url: null,
    account_id: accountId,
    content: "<p>A photo</p>",
    visibility,
    local: false,
    created_at: now,
    updated_at: now,
  });
  const mediaId = s.ctx.ids.next();
  await s.ctx.repos.media.insert({
    id: mediaId,
    account_id: accountId,
    status_id: statusId,
    scheduled_status_id: null,
    type: "image",
    remote_url: `${host.url}/photo.png`,
    description: "A red square",
    created_at: now,
    updated_at: now,
  });
  return { accountId, statusId, mediaId };
}

describe("remote media cache", () => {
  let s: TestServer;
  let host: ImageHost;
  const local = (url: string) => `${s.url}${new URL(url).pathname}`;

  before(async () => {
    host = await startImageHost();
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1", MEDIA_CACHE_RETENTION_PERIOD: "7" });
  });
  after(async () => {
    await s.close();
    await host.close();
  });

  it("caches attachments, avatars and headers in the background, expires them and fetches them again on demand", async () => {
    const { accountId, statusId, mediaId } = await seedRemote(s, host);
    const base = s.ctx.config.baseUrl;
    let status = (await s.request(`/api/v1/statuses/${statusId}`)).body;
    assert.equal(status.media_attachments[0].url, `${base}/media_proxy/${mediaId}/original`, "not cached yet");
    assert.equal(status.media_attachments[0].preview_url, `${base}/media_proxy/${mediaId}/small`);
    assert.equal(status.media_attachments[0].remote_url, `${host.url}/photo.png`);
    assert.equal(status.account.avatar, `${base}/avatars/original/missing.png`, "never the remote address");
    assert.equal(status.account.header, `${base}/headers/original/missing.png`);

    await queueRemoteMedia(s.ctx, { statusId });
    await queueRemoteMedia(s.ctx, { accountId });
    await s.settle();
    status = (await s.request(`/api/v1/statuses/${statusId}`)).body;
    const media = status.media_attachments[0];
    assert.match(media.url, new RegExp(`^${base}/system/cache/media_attachments/${mediaId}/`));
    assert.match(media.preview_url, /\/small\.jpg$/);
    assert.deepEqual(media.meta.original, { width: 1600, height: 1200, size: "1600x1200", aspect: 1600 / 1200 });
    assert.equal(typeof media.blurhash, "string");
    assert.equal((await fetch(local(media.url))).status, 200);
    assert.match(status.account.avatar, new RegExp(`^${base}/system/cache/accounts/avatars/${accountId}/`));
    assert.match(status.account.header, new RegExp(`^${base}/system/cache/accounts/headers/${accountId}/`));
    const avatar = Buffer.from(await (await fetch(local(status.account.avatar))).arrayBuffer());
    assert.equal((await sharp(avatar).metadata()).width, 400, "cropped like a local avatar");

    // Nothing is old enough yet.
    assert.equal(await purgeRemoteMediaCache(s.ctx), 0);
    const eightDaysLater = new Date(Date.now() + 8 * 86_400_000);
    assert.equal(await purgeRemoteMediaCache(s.ctx, eightDaysLater), 3);
    assert.equal((await fetch(local(media.url))).status, 404, "the cached file is gone");
    status = (await s.request(`/api/v1/statuses/${statusId}`)).body;
    assert.equal(status.media_attachments[0].url, `${base}/media_proxy/${mediaId}/original`, "the row stays");
    assert.equal(status.media_attachments[0].description, "A red square");
    assert.equal(status.account.avatar, `${base}/avatars/original/missing.png`, "the default until refreshed");

    const photoHits = host.hits("/photo.png");
    const proxied = await fetch(`${s.url}/media_proxy/${mediaId}/original`, { redirect: "manual" });
    assert.equal(proxied.status, 302);
    assert.equal(proxied.headers.get("access-control-allow-origin"), "*", "CORS holds on every hop");
    const again = proxied.headers.get("location") ?? "";
    assert.match(again, new RegExp(`^${base}/system/cache/media_attachments/${mediaId}/`));
    assert.notEqual(again, media.url, "a new copy gets new URLs");
    assert.equal(host.hits("/photo.png"), photoHits + 1, "fetched again on demand");
    assert.equal((await fetch(local(again))).status, 200);
    const small = await fetch(`${s.url}/media_proxy/${mediaId}/small`, { redirect: "manual" });
    assert.match(small.headers.get("location") ?? "", /\/small\.jpg$/);
    assert.equal(host.hits("/photo.png"), photoHits + 1, "cached once");
    assert.equal((await s.request(`/api/v1/statuses/${statusId}`)).body.media_attachments[0].url, again);

    // A refresh of the account caches its images again.
    await queueRemoteMedia(s.ctx, { accountId });
    await s.settle();
    assert.match(
      (await s.request(`/api/v1/accounts/${accountId}`)).body.avatar,
      /\/system\/cache\/accounts\/avatars\//,
    );
  });

  it("never proxies media of private posts, and refuses private addresses unless allowed", async () => {
    const { mediaId } = await seedRemote(s, host, "private");
    assert.equal((await fetch(`${s.url}/media_proxy/${mediaId}/original`, { redirect: "manual" })).status, 404);

    const strict = await startTestServer();
    try {
      const seeded = await seedRemote(strict, host);
      const hits = host.hits("/photo.png");
      await queueRemoteMedia(strict.ctx, { statusId: seeded.statusId });
      await strict.settle();
      const status = (await strict.request(`/api/v1/statuses/${seeded.statusId}`)).body;
      assert.match(status.media_attachments[0].url, /\/media_proxy\//, "not cached");
      const r = await fetch(`${strict.url}/media_proxy/${seeded.mediaId}/original`, { redirect: "manual" });
      assert.equal(r.status, 404);
      assert.equal(host.hits("/photo.png"), hits, "the loopback host was never contacted");
    } finally {
      await strict.close();
    }
  });
});
