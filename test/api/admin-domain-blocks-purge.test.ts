import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectEntity } from "../helpers/entity-schemas.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { Browser, submitSignIn } from "./oauth-browser.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

describe("Admin API: a suspending domain block purges the domain", () => {
  let s: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  const ids = {
    r1: "",
    r2: "",
    r3: "",
    good: "",
    post1: "",
    post2: "",
    subPost: "",
    goodPost: "",
    media: "",
    alicePost: "",
    boost: "",
    bobBoost: "",
    notification: "",
    block: "",
    createdAt: "",
    event: "",
  };
  const mediaKey = "cache/media_attachments/purge/original.png";

  const req = (u: TestUser | undefined, path: string, method = "GET", json?: Record<string, unknown>) =>
    s.request(path, { method, token: u?.token, json: json ?? (method === "GET" ? undefined : {}) });
  const remote = async (username: string, domain: string) => {
    const id = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.repos.accounts.insert({
      id,
      username,
      domain,
      uri: `https://${domain}/users/${username}`,
      created_at: now,
      updated_at: now,
    });
    return id;
  };
  const status = async (accountId: string, fields: Record<string, unknown> = {}) => {
    const id = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.repos.statuses.insert({
      id,
      uri: `https://remote.test/statuses/${id}`,
      url: null,
      account_id: accountId,
      text: "",
      content: "<p>from afar</p>",
      visibility: "public",
      sensitive: false,
      local: false,
      created_at: now,
      updated_at: now,
      ...fields,
    });
    return id;
  };
  const row = (table: "statuses" | "accounts", id: string) =>
    s.ctx.db.selectFrom(table).selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const homeIds = async (u: TestUser) =>
    ((await req(u, "/api/v1/timelines/home")).body as { id: string }[]).map((x) => x.id);

  before(async () => {
    s = await startTestServer({});
    admin = await s.createUser("adm", { role: "Admin", scopes: ADMIN_SCOPES });
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    ids.r1 = await remote("r1", "evil.example");
    ids.r2 = await remote("r2", "evil.example");
    ids.r3 = await remote("r3", "sub.evil.example");
    ids.good = await remote("g", "good.example");
    // alice follows r1 (boosts on, notify on, English) and g; r2 and r3 follow alice.
    await s.ctx.repos.follows.insert({
      id: s.ctx.ids.next(),
      account_id: alice.account.id,
      target_account_id: ids.r1,
      notify: true,
      languages: ["en"],
      created_at: new Date().toISOString(),
    });
    await s.follow(alice, { account: { id: ids.good } as never });
    await s.follow({ account: { id: ids.r2 } as never }, alice);
    await s.follow({ account: { id: ids.r3 } as never }, alice);

    ids.post1 = await status(ids.r1);
    ids.post2 = await status(ids.r1);
    ids.subPost = await status(ids.r3);
    ids.goodPost = await status(ids.good);
    ids.media = s.ctx.ids.next();
    await s.ctx.blobs.put(mediaKey, new Uint8Array([1, 2, 3]), "image/png");
    await s.ctx.repos.media.insert({
      id: ids.media,
      account_id: ids.r1,
      status_id: ids.post1,
      scheduled_status_id: null,
      type: "image",
      remote_url: "https://evil.example/p.png",
      file_key: mediaKey,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    for (const statusId of [ids.post1, ids.subPost, ids.goodPost]) {
      await s.ctx.db
        .insertInto("feeds")
        .values({ account_id: alice.account.id, status_id: statusId, reblog_of_id: null })
        .execute();
    }
    // r2 favourites and boosts alice's post, and alice was notified of the favourite.
    const p = await req(alice, "/api/v1/statuses", "POST", { status: "hello" });
    assert.equal(p.status, 200);
    ids.alicePost = p.body.id;
    await s.settle();
    await s.ctx.repos.statusInteractions.add("favourites", {
      id: s.ctx.ids.next(),
      account_id: ids.r2,
      status_id: ids.alicePost,
      created_at: new Date().toISOString(),
    });
    ids.boost = await status(ids.r2, { reblog_of_id: ids.alicePost, content: "" });
    // bob boosted r1's second post: the boost goes with it, uncounted.
    ids.bobBoost = await status(bob.account.id, { reblog_of_id: ids.post2, content: "", local: true });
    await s.ctx.db.updateTable("accounts").set({ statuses_count: 1 }).where("id", "=", bob.account.id).execute();
    await s.ctx.db
      .updateTable("statuses")
      .set({ favourites_count: 1, reblogs_count: 1 })
      .where("id", "=", ids.alicePost)
      .execute();
    ids.notification = s.ctx.ids.next();
    await s.ctx.repos.notifications.insert({
      id: ids.notification,
      account_id: alice.account.id,
      from_account_id: ids.r2,
      type: "favourite",
      status_id: ids.alicePost,
      activity_id: s.ctx.ids.next(),
      group_key: `ungrouped-${ids.notification}`,
      created_at: new Date().toISOString(),
    });
  });
  after(() => s.close());

  it("suspends the accounts, removes their posts, media, follows and traces, keeping counters right", async () => {
    const home = await homeIds(alice);
    assert.ok(home.includes(ids.post1) && home.includes(ids.subPost) && home.includes(ids.goodPost));
    assert.equal(Number((await row("accounts", alice.account.id)).following_count), 2);
    assert.equal(Number((await row("accounts", alice.account.id)).followers_count), 2);

    const r = await req(admin, "/api/v1/admin/domain_blocks", "POST", { domain: "evil.example", severity: "suspend" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    ids.block = r.body.id;
    ids.createdAt = r.body.created_at;
    await s.settle();

    // The accounts stay, suspended with the block's time (Mastodon keeps them: unblocking restores them).
    for (const id of [ids.r1, ids.r2, ids.r3]) {
      const a = await row("accounts", id);
      assert.equal(a.suspended_at, ids.createdAt);
      assert.equal(Number(a.followers_count), 0);
      assert.equal(Number(a.following_count), 0);
    }
    assert.equal((await row("accounts", ids.good)).suspended_at, null);
    // Posts gone (tombstones), from the home feed too; the other domain's stay.
    for (const id of [ids.post1, ids.post2, ids.subPost, ids.boost]) {
      assert.notEqual((await row("statuses", id)).deleted_at, null, id);
    }
    assert.equal((await row("statuses", ids.goodPost)).deleted_at, null);
    assert.notEqual((await row("statuses", ids.bobBoost)).deleted_at, null, "a local boost of a purged post");
    assert.equal(Number((await row("accounts", bob.account.id)).statuses_count), 0);
    const after = await homeIds(alice);
    assert.ok(!after.includes(ids.post1) && !after.includes(ids.subPost));
    assert.ok(after.includes(ids.goodPost));
    // Media: row and file.
    assert.equal(await s.ctx.repos.media.getById(ids.media), undefined);
    assert.equal(await s.ctx.blobs.stat(mediaKey), undefined);
    // Follows both ways, counted.
    const aliceRow = await row("accounts", alice.account.id);
    assert.equal(Number(aliceRow.following_count), 1);
    assert.equal(Number(aliceRow.followers_count), 0);
    const follows = await s.ctx.db
      .selectFrom("follows")
      .select("target_account_id")
      .where((eb) => eb.or([eb("account_id", "=", alice.account.id), eb("target_account_id", "=", alice.account.id)]))
      .execute();
    assert.deepEqual(
      follows.map((f) => String(f.target_account_id)),
      [ids.good],
    );
    // What r2 did to alice's post: favourite and boost uncounted, the notification gone.
    const post = await row("statuses", ids.alicePost);
    assert.equal(Number(post.favourites_count), 0);
    assert.equal(Number(post.reblogs_count), 0);
    assert.equal(await s.ctx.repos.notifications.get(alice.account.id, ids.notification), undefined);
    assert.equal(await s.ctx.repos.instanceDomainBlocks.isDeliveryAllowed("evil.example"), false);
  });

  it("notifies each local user who lost follows with severed_relationships (v1 and grouped v2)", async () => {
    const v1 = await req(alice, "/api/v1/notifications?types[]=severed_relationships");
    expectEntity(v1, ["Notification"], "severed_relationships v1");
    assert.equal(v1.body.length, 1);
    const n = v1.body[0];
    assert.equal(n.type, "severed_relationships");
    assert.equal(n.account.id, alice.account.id);
    assert.deepEqual(Object.keys(n.event).sort(), [
      "created_at",
      "followers_count",
      "following_count",
      "id",
      "purged",
      "target_name",
      "type",
    ]);
    assert.equal(n.event.type, "domain_block");
    assert.equal(n.event.target_name, "evil.example");
    assert.equal(n.event.purged, false);
    assert.equal(n.event.followers_count, 2);
    assert.equal(n.event.following_count, 1);
    ids.event = n.event.id;

    const v2 = await req(alice, "/api/v2/notifications");
    expectEntity(v2, "GroupedNotificationsResults", "severed_relationships v2");
    const group = v2.body.notification_groups.find((g: { type: string }) => g.type === "severed_relationships");
    assert.ok(group, JSON.stringify(v2.body));
    assert.deepEqual(group.event, n.event);
    assert.equal(group.notifications_count, 1);

    // bob lost nothing: no notification.
    const bobs = await req(bob, "/api/v1/notifications?types[]=severed_relationships");
    assert.deepEqual(bobs.body, []);
  });

  it("lets the user download the lists as Mastodon's CSV (session or read:follows token)", async () => {
    const following = await s.request(`/severed_relationships/${ids.event}/following.csv`, { token: alice.token });
    assert.equal(following.status, 200);
    assert.match(following.headers.get("content-type") ?? "", /^text\/csv/);
    assert.match(following.headers.get("content-disposition") ?? "", /following-evil\.example-\d{4}-\d\d-\d\d\.csv/);
    assert.equal(
      following.body,
      "Account address,Show boosts,Notify on new posts,Languages\nr1@evil.example,true,true,en\n",
    );
    const followers = await s.request(`/severed_relationships/${ids.event}/followers.csv`, { token: alice.token });
    assert.equal(followers.status, 200);
    const lines = (followers.body as string).trim().split("\n");
    assert.equal(lines[0], "Account address");
    assert.deepEqual(lines.slice(1).sort(), ["r2@evil.example", "r3@sub.evil.example"]);

    // A signed-in browser.
    const b = new Browser(s);
    const signIn = await submitSignIn(b, (await b.request("/auth/sign_in")).body, alice);
    assert.equal(signIn.status, 302);
    const viaSession = await b.request(`/severed_relationships/${ids.event}/following.csv`);
    assert.equal(viaSession.status, 200);
    assert.equal(viaSession.body, following.body);

    // Someone else's event, a token without read:follows, nobody, a bad id.
    assert.equal(
      (await s.request(`/severed_relationships/${ids.event}/following.csv`, { token: bob.token })).status,
      404,
    );
    const writeOnly = await s.createUser("writer", { scopes: "write" });
    assert.equal(
      (await s.request(`/severed_relationships/${ids.event}/following.csv`, { token: writeOnly.token })).status,
      403,
    );
    assert.equal((await s.request(`/severed_relationships/${ids.event}/following.csv`, { token: "nope" })).status, 401);
    const anon = await s.request(`/severed_relationships/${ids.event}/followers.csv`);
    assert.equal(anon.status, 302);
    assert.match(anon.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=/);
    assert.equal((await s.request("/severed_relationships/x/followers.csv", { token: alice.token })).status, 404);
  });

  it("unblocking restores the accounts (empty), as Mastodon's UnblockDomainService", async () => {
    const del = await req(admin, `/api/v1/admin/domain_blocks/${ids.block}`, "DELETE");
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    for (const id of [ids.r1, ids.r2, ids.r3]) assert.equal((await row("accounts", id)).suspended_at, null);
    assert.notEqual((await row("statuses", ids.post2)).deleted_at, null, "the content stays gone");
    assert.equal(await s.ctx.repos.instanceDomainBlocks.isDeliveryAllowed("evil.example"), true);
    const logs = await s.ctx.repos.adminActionLogs.page({ targetId: ids.block }, { limit: 10 });
    assert.deepEqual(
      logs.map((e) => e.action),
      ["destroy", "create"],
    );
    await s.settle();
  });
});
