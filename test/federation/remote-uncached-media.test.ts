import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * A remote actor whose avatar, header and attachments point at an address of its choosing, which
 * cannot be cached here (tests never leave loopback, so every fetch of it fails): no client of
 * this server is ever handed that address to load, only this server's own URLs, as in Mastodon.
 */
describe("uncached remote avatars, headers and attachments", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let mallory: FakeActor;
  let alice: TestUser;
  const tracker = "https://tracker.example/pixel";

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    mallory = await remote.addActor("mallory", {
      icon: { type: "Image", mediaType: "image/png", url: `${tracker}/avatar.png?who=viewer` },
      image: { type: "Image", mediaType: "image/png", url: `${tracker}/header.png?who=viewer` },
    });
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  const photo = (name: string) => ({
    type: "Document",
    mediaType: "image/png",
    url: `${tracker}/${name}.png`,
    name: "a picture",
  });

  it("serves missing.png for the avatar and header until they are cached, and proxies attachments", async () => {
    const note = remote.note(mallory, "public", { attachment: [photo("public")] });
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(mallory, note))).status, 202);
    await s.settle({ allowDead: true });
    const account = await s.ctx.repos.accounts.getByUri(mallory.id);
    assert.ok(account);
    assert.equal(account.avatarRemoteUrl, `${tracker}/avatar.png?who=viewer`, "the remote address is kept");
    assert.equal(account.avatarPath, null, "but nothing was cached");
    const base = s.ctx.config.baseUrl;

    const shown = (await s.request(`/api/v1/accounts/${account.id}`)).body;
    assert.equal(shown.avatar, `${base}/avatars/original/missing.png`);
    assert.equal(shown.avatar_static, `${base}/avatars/original/missing.png`);
    assert.equal(shown.header, `${base}/headers/original/missing.png`);
    assert.equal(shown.header_static, `${base}/headers/original/missing.png`);
    const missing = await fetch(`${s.url}/avatars/original/missing.png`);
    assert.equal(missing.status, 200);
    assert.equal(missing.headers.get("content-type"), "image/png");
    await missing.arrayBuffer();

    const status = await s.ctx.repos.statuses.getByUri(note.id);
    assert.ok(status);
    const body = (await s.request(`/api/v1/statuses/${status.id}`)).body;
    const media = body.media_attachments[0];
    assert.equal(media.url, `${base}/media_proxy/${media.id}/original`);
    assert.equal(media.preview_url, `${base}/media_proxy/${media.id}/small`);
    assert.equal(media.remote_url, `${tracker}/public.png`);
    assert.equal(body.account.avatar, `${base}/avatars/original/missing.png`);
    // The tracker's address appears once: as `remote_url`, which clients only link to.
    assert.equal(JSON.stringify(body).split(tracker).length - 1, 1, JSON.stringify(body));
  });

  it("points attachments of a followers-only post at this server too, never at the remote address", async () => {
    const account = await s.ctx.repos.accounts.getByUri(mallory.id);
    assert.ok(account);
    await s.follow(alice, { account });
    const note = remote.note(mallory, "private", { to: [mallory.followers], cc: [], attachment: [photo("private")] });
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(mallory, note))).status, 202);
    await s.settle({ allowDead: true });
    const status = await s.ctx.repos.statuses.getByUri(note.id);
    assert.ok(status);
    const r = await s.request(`/api/v1/statuses/${status.id}`, { token: alice.token });
    assert.equal(r.status, 200);
    const media = r.body.media_attachments[0];
    assert.equal(media.url, `${s.ctx.config.baseUrl}/media_proxy/${media.id}/original`);
    assert.equal(media.remote_url, `${tracker}/private.png`);
    assert.equal(JSON.stringify(r.body).split(tracker).length - 1, 1);
    // The proxy has no viewer: it serves no followers-only media.
    assert.equal((await fetch(`${s.url}/media_proxy/${media.id}/original`, { redirect: "manual" })).status, 404);
  });
});
