import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/**
 * A sensitized account (docs/moderation.md, "What suspension, silence and sensitive do"): its
 * posts are shown sensitive on every surface (also from the kept JSON of the timelines), federated
 * sensitive, and its remote posts are stored sensitive; lifting the flag restores the local ones.
 */
describe("moderation effects: sensitized accounts, and remote accounts suspended by their server", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let actor: FakeActor;
  let author: TestUser;
  let follower: TestUser;

  interface StatusJson {
    id: string;
    uri: string;
    sensitive: boolean;
    reblog: StatusJson | null;
  }

  const get = async <T = any>(u: TestUser | undefined, path: string): Promise<T> => {
    const r = await s.request(path, { token: u?.token });
    assert.equal(r.status, 200, `GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const call = async <T = any>(u: TestUser, method: string, path: string, json?: unknown): Promise<T> => {
    const r = await s.request(path, { method, token: u.token, json: json ?? {} });
    assert.equal(r.status, 200, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const post = (u: TestUser, json: Record<string, unknown>) => call<StatusJson>(u, "POST", "/api/v1/statuses", json);
  const upload = async (u: TestUser) => (await call<{ id: string }>(u, "POST", "/api/v1/media", { file: PNG })).id;
  const settle = () => s.settle({ delayed: false, skip: ["media.cache-remote"], allowDead: true });
  const sensitize = (accountId: string, on: boolean) =>
    s.ctx.repos.accounts.update(accountId, { sensitized_at: on ? new Date().toISOString() : null });

  /** `sensitive` of each status on every surface that shows it, by surface. */
  const surfaces = async (st: StatusJson): Promise<Record<string, boolean | undefined>> => {
    const find = (list: StatusJson[]) => list.find((x) => x.id === st.id)?.sensitive;
    const note = await s.request(new URL(st.uri).pathname, { headers: { accept: "application/activity+json" } });
    assert.equal(note.status, 200);
    return {
      status: (await get<StatusJson>(follower, `/api/v1/statuses/${st.id}`)).sensitive,
      anonymous: (await get<StatusJson>(undefined, `/api/v1/statuses/${st.id}`)).sensitive,
      author: (await get<StatusJson>(author, `/api/v1/statuses/${st.id}`)).sensitive,
      home: find(await get(follower, "/api/v1/timelines/home")),
      public: find(await get(follower, "/api/v1/timelines/public?local=true")),
      tag: find(await get(undefined, "/api/v1/timelines/tag/sensitizedtag")),
      profile: find(await get(follower, `/api/v1/accounts/${author.account.id}/statuses`)),
      note: (note.body as { sensitive?: boolean }).sensitive === true,
    };
  };
  const all = (v: boolean) => ({
    status: v,
    anonymous: v,
    author: v,
    home: v,
    public: v,
    tag: v,
    profile: v,
    note: v,
  });

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    actor = await remote.addActor("pics");
    author = await s.createUser("author");
    follower = await s.createUser("follower");
    await call(follower, "POST", `/api/v1/accounts/${author.account.id}/follow`);
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  it("local posts: shown and federated sensitive while the flag is set, as posted once it is lifted", async () => {
    const withMedia = await post(author, { status: "a picture #sensitizedtag", media_ids: [await upload(author)] });
    const text = await post(author, { status: "just words #sensitizedtag" });
    const marked = await post(author, { status: "marked #sensitizedtag", sensitive: true });
    await settle();
    // Rendered (and kept) before the flag.
    assert.deepEqual(await surfaces(withMedia), all(false));
    assert.deepEqual(await surfaces(text), all(false));
    assert.deepEqual(await surfaces(marked), all(true));

    await sensitize(author.account.id, true);
    assert.deepEqual(await surfaces(withMedia), all(true));
    assert.deepEqual(await surfaces(text), all(true), "every post, as Mastodon's serializers");
    // New posts and edits while sensitized.
    const later = await post(author, { status: "later #sensitizedtag", media_ids: [await upload(author)] });
    await settle();
    assert.deepEqual(await surfaces(later), all(true));
    const edited = await call<StatusJson>(author, "PUT", `/api/v1/statuses/${withMedia.id}`, {
      status: "a picture, edited #sensitizedtag",
      sensitive: false,
    });
    assert.equal(edited.sensitive, true);
    // A boost of it shows the boosted post sensitive.
    const boost = await call<StatusJson>(follower, "POST", `/api/v1/statuses/${text.id}/reblog`);
    assert.equal(boost.reblog?.sensitive, true);

    await sensitize(author.account.id, false);
    assert.deepEqual(await surfaces(withMedia), all(false));
    assert.deepEqual(await surfaces(text), all(false));
    assert.deepEqual(await surfaces(later), all(false));
    assert.deepEqual(await surfaces(marked), all(true), "a post marked by its author stays marked");
  });

  it("remote posts of a sensitized account are stored sensitive, created or edited", async () => {
    const inbox = `${s.url}/inbox`;
    const first = remote.note(actor, "1");
    assert.equal((await remote.send(inbox, remote.create(actor, first))).status, 202);
    await settle();
    const account = await s.ctx.repos.accounts.getByUri(actor.id);
    assert.ok(account);
    assert.equal((await s.ctx.repos.statuses.getByUri(first.id))?.sensitive, false);

    await sensitize(account.id, true);
    const second = remote.note(actor, "2");
    assert.equal((await remote.send(inbox, remote.create(actor, second))).status, 202);
    const update = remote.activity(actor, "Update", {
      object: { ...first, content: "<p>Hello, edited</p>", updated: new Date(Date.now() + 1000).toISOString() },
    });
    assert.equal((await remote.send(inbox, update)).status, 202);
    await settle();
    const stored2 = await s.ctx.repos.statuses.getByUri(second.id);
    const stored1 = await s.ctx.repos.statuses.getByUri(first.id);
    assert.equal(stored2?.sensitive, true);
    assert.equal(stored1?.content.includes("edited"), true);
    assert.equal(stored1?.sensitive, true);

    // As Mastodon: what was stored sensitive stays so when the flag is lifted.
    await sensitize(account.id, false);
    assert.equal((await get<StatusJson>(follower, `/api/v1/statuses/${stored2?.id}`)).sensitive, true);
    const third = remote.note(actor, "3");
    assert.equal((await remote.send(inbox, remote.create(actor, third))).status, 202);
    await settle();
    assert.equal((await s.ctx.repos.statuses.getByUri(third.id))?.sensitive, false);
  });

  it("a suspended remote account: its posts are refused; its server's Update lifting the suspension is taken", async () => {
    const inbox = `${s.url}/inbox`;
    const other = await remote.addActor("suspendedthere");
    const first = remote.note(other, "s1");
    assert.equal((await remote.send(inbox, remote.create(other, first))).status, 202);
    await settle();
    const account = await s.ctx.repos.accounts.getByUri(other.id);
    assert.ok(account);
    // Its server suspended it (as an Update with `suspended: true` records).
    await s.ctx.repos.accounts.update(account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "remote",
    });
    const refused = remote.note(other, "s2");
    assert.equal((await remote.send(inbox, remote.create(other, refused))).status, 202);
    await settle();
    assert.equal(await s.ctx.repos.statuses.getByUri(refused.id), undefined, "a Create is refused");
    // It may still take back what it did (Mastodon's activities allowed while suspended).
    const gone = remote.activity(other, "Delete", { object: { id: first.id, type: "Tombstone" } });
    assert.equal((await remote.send(inbox, gone)).status, 202);
    await settle();
    assert.notEqual((await s.ctx.repos.statuses.getByUri(first.id))?.deletedAt ?? null, null);
    // Its server lifts the suspension: the actor's Update says so.
    const lifted = remote.activity(other, "Update", { object: remote.actorDocument(other) });
    assert.equal((await remote.send(inbox, lifted)).status, 202);
    await settle();
    assert.equal((await s.ctx.repos.accounts.getById(account.id))?.suspendedAt, null);
    const after = remote.note(other, "s3");
    assert.equal((await remote.send(inbox, remote.create(other, after))).status, 202);
    await settle();
    assert.ok(await s.ctx.repos.statuses.getByUri(after.id));

    // A moderator's suspension is not lifted by the account's server.
    await s.ctx.repos.accounts.update(account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "local",
    });
    assert.equal((await remote.send(inbox, lifted)).status, 202);
    await settle();
    assert.notEqual((await s.ctx.repos.accounts.getById(account.id))?.suspendedAt, null);
  });
});
