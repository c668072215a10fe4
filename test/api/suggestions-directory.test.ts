import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("follow suggestions and the profile directory", () => {
  let s: TestServer;
  // The viewer and the accounts around it (see `before`).
  let v: TestUser;
  let f: TestUser;
  let x: TestUser;
  let p1: TestUser;
  let p2: TestUser;
  let p3: TestUser;
  let blk: TestUser;
  let mut: TestUser;
  let blocker: TestUser;
  /** Discoverable accounts, in creation order. */
  const discoverable: TestUser[] = [];

  const profile = async (u: TestUser, form: Record<string, string>) => {
    const r = await s.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: u.token, form });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  const make = async (name: string, opts: { discoverable: boolean }) => {
    const u = await s.createUser(name);
    if (opts.discoverable) {
      await profile(u, { discoverable: "true" });
      discoverable.push(u);
    }
    return u;
  };
  const ids = (body: { id: string }[]) => body.map((a) => a.id);
  const idsOf = (...us: TestUser[]) => us.map((u) => u.account.id);
  const get = async (path: string, token?: string) => {
    const r = await s.request(path, { token });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };

  before(async () => {
    s = await startTestServer({});
    v = await make("viewer", { discoverable: true });
    f = await make("friend", { discoverable: true });
    x = await make("friendoffriend", { discoverable: true });
    p1 = await make("popular", { discoverable: true });
    p2 = await make("known", { discoverable: true });
    p3 = await make("newcomer", { discoverable: true });
    blk = await make("blocked", { discoverable: true });
    mut = await make("muted", { discoverable: true });
    blocker = await make("blocker", { discoverable: true });
    const y = await make("quiet", { discoverable: false });
    const z = await make("hidden", { discoverable: false });
    await s.follow(v, f);
    await s.follow(f, x);
    await s.follow(y, p1);
    await s.follow(z, p1);
    await s.follow(y, p2);
    for (const [who, target, action] of [
      [v, blk, "block"],
      [v, mut, "mute"],
      [blocker, v, "block"],
    ] as const) {
      const r = await s.request(`/api/v1/accounts/${target.account.id}/${action}`, {
        method: "POST",
        token: who.token,
      });
      assert.equal(r.status, 200);
    }
  });
  after(() => s.close());

  it("suggests friends of friends first, then popular local accounts, with sources (v2) and as accounts (v1)", async () => {
    const body = await get("/api/v2/suggestions", v.token);
    assert.deepEqual(
      body.map((x: { account: { id: string } }) => x.account.id),
      idsOf(x, p1, p2, p3),
    );
    assert.deepEqual(body[0].sources, ["friends_of_friends", "most_followed"]);
    assert.equal(body[0].source, "past_interactions");
    assert.deepEqual(body[1].sources, ["most_followed"]);
    assert.equal(body[1].source, "global");
    assert.equal(body[1].account.username, p1.account.username);

    assert.deepEqual(
      (await get("/api/v2/suggestions?limit=2", v.token)).map((x: { account: { id: string } }) => x.account.id),
      idsOf(x, p1),
    );
    assert.deepEqual(
      (await get("/api/v2/suggestions?limit=2&offset=2", v.token)).map(
        (x: { account: { id: string } }) => x.account.id,
      ),
      idsOf(p2, p3),
    );
    assert.deepEqual(ids(await get("/api/v1/suggestions", v.token)), idsOf(x, p1, p2, p3));
    assert.equal((await s.request("/api/v2/suggestions?limit=-1", { token: v.token })).status, 400);
    assert.equal((await s.request("/api/v2/suggestions?offset=-1", { token: v.token })).status, 400);
  });

  it("dismisses a suggestion for good, repeatably; an unknown account stores nothing", async () => {
    const viewer = await s.createUser("dismisser");
    const before = ids(await get("/api/v1/suggestions", viewer.token));
    assert.ok(before.includes(p2.account.id));
    for (let i = 0; i < 2; i++) {
      const r = await s.request(`/api/v1/suggestions/${p2.account.id}`, { method: "DELETE", token: viewer.token });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {});
    }
    const after = ids(await get("/api/v1/suggestions", viewer.token));
    assert.deepEqual(
      after,
      before.filter((id) => id !== p2.account.id),
    );
    const unknown = await s.request("/api/v1/suggestions/999999999", { method: "DELETE", token: viewer.token });
    assert.equal(unknown.status, 200);
    const rows = await s.ctx.db
      .selectFrom("account_suggestion_dismissals")
      .selectAll()
      .where("account_id", "=", viewer.account.id)
      .execute();
    assert.equal(rows.length, 1);
    // Still not suggested once p2 gains followers.
    await s.follow(p3, p2);
    assert.ok(!ids(await get("/api/v1/suggestions", viewer.token)).includes(p2.account.id));
    // Others still get it.
    assert.ok(ids(await get("/api/v1/suggestions", v.token)).includes(p2.account.id));
  });

  it("checks tokens and scopes", async () => {
    assert.equal((await s.request("/api/v2/suggestions")).status, 401);
    assert.equal((await s.request("/api/v1/suggestions/1", { method: "DELETE" })).status, 401);
    const app = await s.appToken("read");
    assert.equal((await s.request("/api/v2/suggestions", { token: app })).status, 422);
    const push = await s.createUser("pushonly", { scopes: "push" });
    assert.equal((await s.request("/api/v2/suggestions", { token: push.token })).status, 403);
    assert.equal((await s.request("/api/v1/suggestions", { token: push.token })).status, 403);
    const del = await s.request(`/api/v1/suggestions/${p3.account.id}`, { method: "DELETE", token: push.token });
    assert.equal(del.status, 403);
    const readAccounts = await s.createUser("readaccounts", { scopes: "read:accounts" });
    assert.equal((await s.request("/api/v2/suggestions", { token: readAccounts.token })).status, 200);
  });

  it("lists discoverable local accounts in the directory: new, active, offset, without the viewer's blocks and mutes", async () => {
    const newest = [...discoverable].reverse();
    assert.deepEqual(ids(await get("/api/v1/directory?local=true&order=new&limit=80")), idsOf(...newest));
    assert.deepEqual(ids(await get("/api/v1/directory?order=new&limit=2&offset=1")), idsOf(...newest.slice(1, 3)));
    const asViewer = ids(await get("/api/v1/directory?order=new&limit=80", v.token));
    assert.deepEqual(asViewer, idsOf(...newest.filter((u) => u !== blk && u !== mut && u !== blocker)));

    for (const [u, text] of [
      [p2, "first"],
      [x, "second"],
    ] as const) {
      const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json: { status: text } });
      assert.equal(r.status, 200);
    }
    const active = ids(await get("/api/v1/directory?local=true"));
    assert.deepEqual(active.slice(0, 2), idsOf(x, p2), "most recent poster first");
    assert.deepEqual(active.slice(2), idsOf(...newest.filter((u) => u !== x && u !== p2)));

    // Opting out of discovery leaves the directory (and suggestions).
    await profile(p3, { discoverable: "false" });
    assert.ok(!ids(await get("/api/v1/directory?limit=80")).includes(p3.account.id));
    assert.ok(!ids(await get("/api/v1/suggestions", v.token)).includes(p3.account.id));

    assert.equal((await s.request("/api/v1/directory?offset=-1")).status, 400);
    assert.equal((await s.request("/api/v1/directory?limit=-1")).status, 400);
    assert.deepEqual(await get("/api/v1/directory?offset=1000"), []);
  });
});
