import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("timelines: public and hashtag", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let remoteStatusId: string;

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const ids = (body: { id: string }[]) => body.map((x) => x.id);

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    await s.follow(bob, alice);
    const now = new Date().toISOString();
    const remoteId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: remoteId,
      username: "remote",
      domain: "remote.example",
      uri: "https://remote.example/users/remote",
      url: "https://remote.example/@remote",
      created_at: now,
      updated_at: now,
    });
    remoteStatusId = s.ctx.ids.next();
    await s.ctx.repos.statuses.insert({
      id: remoteStatusId,
      uri: `https://remote.example/users/remote/statuses/${remoteStatusId}`,
      url: null,
      account_id: remoteId,
      text: "",
      content: "<p>from afar</p>",
      visibility: "public",
      sensitive: false,
      local: false,
      created_at: now,
      updated_at: now,
    });
  });
  after(() => s.close());

  it("public timeline: public posts only, local/remote, no boosts or replies to others, Link", async () => {
    const pub = await post(alice, { status: "hello world" });
    const unlisted = await post(alice, { status: "quiet", visibility: "unlisted" });
    const priv = await post(alice, { status: "secret", visibility: "private" });
    const direct = await post(alice, { status: "@bob psst", visibility: "direct" });
    const reply = await post(bob, { status: "@alice reply", in_reply_to_id: pub.id });
    const selfReply = await post(alice, { status: "thread", in_reply_to_id: pub.id });
    const boost = await s.request(`/api/v1/statuses/${pub.id}/reblog`, { method: "POST", token: bob.token });
    assert.equal(boost.status, 200);

    const anon = await s.request("/api/v1/timelines/public");
    assert.equal(anon.status, 200);
    assert.deepEqual(ids(anon.body), [selfReply.id, pub.id, remoteStatusId]);
    for (const hidden of [unlisted.id, priv.id, direct.id, reply.id, boost.body.id]) {
      assert.ok(!ids(anon.body).includes(hidden));
    }
    // A follower sees no more there: private posts never reach the public timeline.
    const asBob = await s.request("/api/v1/timelines/public", { token: bob.token });
    assert.deepEqual(ids(asBob.body), [selfReply.id, pub.id, remoteStatusId]);
    assert.deepEqual(ids((await s.request("/api/v1/timelines/public?local=true")).body), [selfReply.id, pub.id]);
    assert.deepEqual(ids((await s.request("/api/v1/timelines/public?remote=1")).body), [remoteStatusId]);

    const page = await s.request("/api/v1/timelines/public?limit=2&local=true");
    assert.deepEqual(ids(page.body), [selfReply.id, pub.id]);
    const link = page.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${pub.id}[^>]*>; rel="next"`));
    assert.match(link, new RegExp(`min_id=${selfReply.id}[^>]*>; rel="prev"`));
    assert.match(link, /local=true/);
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1] ?? "";
    const u = new URL(next);
    const older = await s.request(u.pathname + u.search);
    assert.deepEqual(ids(older.body), []);
    assert.match(older.headers.get("link") ?? "", /rel="prev"/);
    assert.deepEqual(ids((await s.request(`/api/v1/timelines/public?min_id=${pub.id}`)).body), [selfReply.id]);
    assert.deepEqual(ids((await s.request(`/api/v1/timelines/public?since_id=${remoteStatusId}`)).body), [
      selfReply.id,
      pub.id,
    ]);
    assert.deepEqual(ids((await s.request(`/api/v1/timelines/public?max_id=${pub.id}`)).body), [remoteStatusId]);
    assert.equal((await s.request("/api/v1/timelines/public?limit=-1")).status, 400);
  });

  it("public timeline: only_media, scopes", async () => {
    const up = await s.request("/api/v1/media", { method: "POST", token: alice.token, json: { file: PNG } });
    assert.equal(up.status, 200);
    const withMedia = await post(alice, { status: "look", media_ids: [up.body.id] });
    const r = await s.request("/api/v1/timelines/public?only_media=true");
    assert.deepEqual(ids(r.body), [withMedia.id]);
    assert.equal(r.body[0].media_attachments.length, 1);
    assert.equal((await s.request("/api/v1/timelines/public", { token: "nope" })).status, 401);
    const writeOnly = await s.createUser("writer", { scopes: "write" });
    assert.equal((await s.request("/api/v1/timelines/public", { token: writeOnly.token })).status, 403);
    const app = await s.appToken("read:statuses");
    assert.equal((await s.request("/api/v1/timelines/public", { token: app })).status, 200);
  });

  it("hashtag timeline: case-insensitive, percent-encoded, any/all/none, public only", async () => {
    const cats = await post(alice, { status: "#Cats are great" });
    const both = await post(bob, { status: "#cats and #dogs" });
    const dogs = await post(alice, { status: "#dogs only" });
    const privCats = await post(alice, { status: "#cats secret", visibility: "private" });
    const unlistedCats = await post(alice, { status: "#cats quietly", visibility: "unlisted" });
    const umlaut = await post(alice, { status: "#Über alles" });
    const reply = await post(bob, { status: "@alice #cats reply", in_reply_to_id: dogs.id });

    const t = (q: string, token?: string) => s.request(`/api/v1/timelines/tag/${q}`, { token });
    const r = await t("CATS");
    assert.equal(r.status, 200);
    assert.deepEqual(ids(r.body), [reply.id, both.id, cats.id]);
    assert.ok(!ids((await t("cats", bob.token)).body).includes(privCats.id));
    assert.ok(!ids(r.body).includes(unlistedCats.id));
    assert.deepEqual(ids((await t(encodeURIComponent("über"))).body), [umlaut.id]);
    assert.deepEqual(ids((await t(encodeURIComponent("ÜBER"))).body), [umlaut.id]);
    assert.deepEqual(ids((await t("cats?any[]=dogs")).body), [reply.id, dogs.id, both.id, cats.id]);
    assert.deepEqual(ids((await t("cats?all[]=dogs")).body), [both.id]);
    assert.deepEqual(ids((await t("cats?none[]=dogs")).body), [reply.id, cats.id]);
    assert.deepEqual(ids((await t("cats?any[]=dogs&none[]=cats")).body), [dogs.id]);
    assert.deepEqual(ids((await t("cats?all[]=nosuchtag")).body), []);
    assert.deepEqual(ids((await t("cats?none[]=nosuchtag&local=true")).body), [reply.id, both.id, cats.id]);
    assert.deepEqual(ids((await t("cats?remote=true")).body), []);
    assert.deepEqual(ids((await t("cats?only_media=true")).body), []);

    const empty = await t("nosuchtag");
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, []);
    assert.match(empty.headers.get("link") ?? "", /rel="prev"/);
    const page = await t("cats?limit=1");
    assert.deepEqual(ids(page.body), [reply.id]);
    assert.match(page.headers.get("link") ?? "", new RegExp(`max_id=${reply.id}[^>]*>; rel="next"`));
    assert.deepEqual(ids((await t(`cats?max_id=${reply.id}&limit=1`)).body), [both.id]);
    assert.equal((await t("cats", "nope")).status, 401);
  });
});
