import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { notificationGroupKey } from "../../src/services/notifications/group-key.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("grouped notifications (v2)", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;

  // Each waits for the jobs it queued: a notification's id is taken when its job runs, and the
  // tests rely on the order of what they do.
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await settled();
    return r.body;
  };
  const act = async (u: TestUser, id: string, action: string) => {
    const r = await s.request(`/api/v1/statuses/${id}/${action}`, { method: "POST", token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await settled();
  };
  /** Waits until every queued job has run, none having died. */
  const settled = async () => {
    const end = Date.now() + 10_000;
    for (;;) {
      const state = await s.ctx.queue.state();
      assert.ok(!state.counts.some((c) => c.state === "dead" && c.count > 0), "a job died");
      if (state.counts.every((c) => c.count === 0)) return;
      if (Date.now() > end) assert.fail(`jobs still pending: ${JSON.stringify(state.counts)}`);
      await sleep(20);
    }
  };
  const v2 = async (u: TestUser, query = "") => {
    await settled();
    const r = await s.request(`/api/v2/notifications${query}`, { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r;
  };
  const v1 = async (u: TestUser, query = "") => {
    await settled();
    return (await s.request(`/api/v1/notifications${query}`, { token: u.token })).body as any[];
  };
  const fresh = (() => {
    let n = 0;
    return () => s.createUser(`user${++n}`);
  })();

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    dave = await s.createUser("dave");
  });
  after(() => s.close());

  it("groups favourites and boosts of one post, lists accounts and statuses once", async () => {
    const me = await fresh();
    const st = await post(me, { status: "group me" });
    await act(alice, st.id, "favourite");
    await act(bob, st.id, "favourite");
    await act(carol, st.id, "reblog");
    const mention = await post(alice, { status: `hi @${me.account.username}` });
    await act(dave, st.id, "favourite");
    const r = await v2(me);
    const body = r.body;
    assert.deepEqual(Object.keys(body), ["accounts", "statuses", "notification_groups"]);
    const groups = body.notification_groups;
    assert.deepEqual(
      groups.map((g: any) => g.type),
      ["favourite", "mention", "reblog"],
      "one group per key, ordered by each group's newest notification",
    );
    const [fav, men, reb] = groups;
    assert.deepEqual(Object.keys(fav), [
      "group_key",
      "notifications_count",
      "type",
      "most_recent_notification_id",
      "page_min_id",
      "page_max_id",
      "latest_page_notification_at",
      "sample_account_ids",
      "status_id",
    ]);
    assert.match(fav.group_key, new RegExp(`^favourite-${st.id}-\\d+$`));
    assert.equal(fav.notifications_count, 3);
    assert.deepEqual(fav.sample_account_ids, [dave.account.id, bob.account.id, alice.account.id], "newest first");
    assert.equal(fav.status_id, st.id);
    assert.equal(fav.page_max_id, fav.most_recent_notification_id);
    // The page runs from its oldest group's newest notification (the boost) up: only dave's
    // favourite of the three lies within it (Mastodon's page range).
    assert.equal(fav.page_min_id, fav.page_max_id);
    const none = (await v2(me, "?grouped_types[]=mention")).body.notification_groups;
    assert.equal(none.length, 5, "favourites and boosts not grouped when not asked for");
    assert.match(fav.latest_page_notification_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(typeof fav.most_recent_notification_id, "string");
    assert.equal(men.group_key, `ungrouped-${men.most_recent_notification_id}`);
    assert.equal(men.notifications_count, 1);
    assert.equal(men.status_id, mention.id);
    assert.deepEqual(men.sample_account_ids, [alice.account.id]);
    assert.equal(men.page_min_id, men.page_max_id);
    assert.equal(reb.status_id, st.id, "a boost group names the boosted post");
    assert.deepEqual(reb.sample_account_ids, [carol.account.id]);
    // Alice is in two groups, the post in two: each once.
    assert.deepEqual(
      body.accounts.map((a: any) => a.id).sort(),
      [alice, bob, carol, dave].map((u) => u.account.id).sort(),
    );
    assert.deepEqual(body.statuses.map((x: any) => x.id).sort(), [mention.id, st.id].sort());
    assert.equal(body.statuses.find((x: any) => x.id === st.id).reblogged, false, "rendered for the viewer");
    // v1 still lists every notification, with the same keys.
    const flat = await v1(me);
    assert.equal(flat.length, 5);
    assert.equal(flat.filter((n) => n.group_key === fav.group_key).length, 3);
  });

  it("grouped_types[] decides what is grouped; types[], exclude_types[] and account_id filter", async () => {
    const me = await fresh();
    const st = await post(me, { status: "filters" });
    await act(alice, st.id, "favourite");
    await act(bob, st.id, "favourite");
    await act(bob, st.id, "reblog");
    const types = async (q: string) => (await v2(me, q)).body.notification_groups.map((g: any) => g.type);
    assert.deepEqual(await types("?grouped_types[]=reblog"), ["reblog", "favourite", "favourite"]);
    const ungrouped = (await v2(me, "?grouped_types[]=reblog")).body.notification_groups;
    assert.ok(ungrouped.every((g: any) => g.group_key.startsWith("ungrouped-") || g.type === "reblog"));
    assert.deepEqual(await types("?types[]=favourite"), ["favourite"]);
    assert.deepEqual(await types("?exclude_types[]=favourite"), ["reblog"]);
    const fromBob = (await v2(me, `?account_id=${bob.account.id}`)).body.notification_groups;
    assert.deepEqual(
      fromBob.map((g: any) => g.type),
      ["reblog", "favourite"],
    );
    // A group's count and samples cover the group, as Mastodon's group data does.
    assert.equal(fromBob[1].notifications_count, 2);
    assert.deepEqual(await types("?types[]=nonsense"), []);
  });

  it("expand_accounts=partial_avatars gives the first account of each group whole, the rest partial", async () => {
    const me = await fresh();
    const st = await post(me, { status: "partial" });
    await act(alice, st.id, "favourite");
    await act(bob, st.id, "favourite");
    await post(carol, { status: `@${me.account.username} hello` });
    const body = (await v2(me, "?expand_accounts=partial_avatars")).body;
    assert.deepEqual(Object.keys(body), ["accounts", "partial_accounts", "statuses", "notification_groups"]);
    assert.deepEqual(body.accounts.map((a: any) => a.id).sort(), [bob.account.id, carol.account.id].sort());
    assert.equal(body.partial_accounts.length, 1);
    assert.deepEqual(Object.keys(body.partial_accounts[0]), [
      "id",
      "acct",
      "url",
      "avatar",
      "avatar_static",
      "locked",
      "bot",
    ]);
    assert.equal(body.partial_accounts[0].id, alice.account.id);
    const full = (await v2(me, "?expand_accounts=full")).body;
    assert.equal(full.partial_accounts, undefined);
    assert.equal(full.accounts.length, 3);
    const bad = await s.request("/api/v2/notifications?expand_accounts=everything", { token: me.token });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /expand_accounts/);
  });

  it("pages by notification id with Link headers; a group met again on the next page counts up to it", async () => {
    const me = await fresh();
    const st = await post(me, { status: "paging" });
    await act(alice, st.id, "favourite");
    await settled();
    const m1 = await post(bob, { status: `@${me.account.username} one` });
    await settled();
    await act(carol, st.id, "favourite");
    await settled();
    const m2 = await post(dave, { status: `@${me.account.username} two` });
    const all = (await v2(me)).body.notification_groups;
    assert.deepEqual(
      all.map((g: any) => g.type),
      ["mention", "favourite", "mention"],
    );
    assert.equal(all[0].status_id, m2.id);
    const first = await v2(me, "?limit=2");
    const groups = first.body.notification_groups;
    assert.equal(groups.length, 2);
    const link = first.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${groups[1].most_recent_notification_id}.*rel="next"`));
    assert.match(link, new RegExp(`min_id=${groups[0].most_recent_notification_id}.*rel="prev"`));
    assert.match(link, /limit=2/);
    const fav = groups[1];
    assert.equal(fav.notifications_count, 2);
    assert.equal(fav.page_min_id, fav.page_max_id, "only carol's favourite lies within the page");
    const next = await v2(me, `?limit=2&max_id=${fav.most_recent_notification_id}`);
    const rest = next.body.notification_groups;
    assert.deepEqual(
      rest.map((g: any) => g.type),
      ["mention", "favourite"],
    );
    assert.equal(rest[0].status_id, m1.id);
    assert.equal(rest[1].group_key, fav.group_key, "the same group, older part");
    assert.match(
      next.headers.get("link") ?? "",
      new RegExp(`max_id=${rest[1].most_recent_notification_id}.*rel="next"`),
      "Mastodon links onwards from any page with groups",
    );
    assert.equal(rest[1].notifications_count, 1);
    assert.deepEqual(rest[1].sample_account_ids, [alice.account.id]);
    // min_id pages forward from a cursor, newest first; since_id takes the newest.
    const oldest = rest[1].most_recent_notification_id;
    const forward = (await v2(me, `?limit=2&min_id=${oldest}`)).body.notification_groups;
    assert.deepEqual(
      forward.map((g: any) => g.status_id),
      [st.id, m1.id],
    );
    const since = (await v2(me, `?limit=1&since_id=${oldest}`)).body.notification_groups;
    assert.equal(since[0].status_id, m2.id);
    const empty = await v2(me, `?min_id=${all[0].most_recent_notification_id}`);
    assert.deepEqual(empty.body.notification_groups, []);
    assert.deepEqual(empty.body.accounts, []);
    assert.match(empty.headers.get("link") ?? "", /rel="prev"/);
    assert.equal((await v2(me, "?limit=500")).body.notification_groups.length, 3, "limit clamped");
    for (const q of ["?limit=-1", "?limit=abc"]) {
      assert.equal((await s.request(`/api/v2/notifications${q}`, { token: me.token })).status, 400);
    }
  });

  it("shows one group, its accounts, and dismisses the whole group", async () => {
    const me = await fresh();
    const st = await post(me, { status: "show me" });
    await act(alice, st.id, "favourite");
    await act(bob, st.id, "favourite");
    const men = await post(carol, { status: `@${me.account.username} yo` });
    const [mention, fav] = (await v2(me)).body.notification_groups;
    const one = await s.request(`/api/v2/notifications/${fav.group_key}`, { token: me.token });
    assert.equal(one.status, 200);
    assert.deepEqual(Object.keys(one.body), ["accounts", "statuses", "notification_groups"]);
    assert.equal(one.body.notification_groups.length, 1);
    const g = one.body.notification_groups[0];
    assert.equal(g.group_key, fav.group_key);
    assert.equal(g.notifications_count, 2);
    assert.equal(g.page_min_id, undefined, "no page fields outside a list");
    assert.equal(one.body.statuses[0].id, st.id);
    const single = await s.request(`/api/v2/notifications/${mention.group_key}`, { token: me.token });
    assert.equal(single.body.notification_groups[0].status_id, men.id);
    const accounts = await s.request(`/api/v2/notifications/${fav.group_key}/accounts`, { token: me.token });
    assert.equal(accounts.status, 200);
    assert.deepEqual(
      accounts.body.map((a: any) => a.id),
      [bob.account.id, alice.account.id],
    );
    const paged = await s.request(`/api/v2/notifications/${fav.group_key}/accounts?limit=1`, { token: me.token });
    assert.deepEqual(
      paged.body.map((a: any) => a.id),
      [bob.account.id],
    );
    const cursor = /max_id=(\d+)[^>]*>; rel="next"/.exec(paged.headers.get("link") ?? "")?.[1];
    assert.ok(cursor, "paged by notification id");
    const page2 = await s.request(`/api/v2/notifications/${fav.group_key}/accounts?limit=1&max_id=${cursor}`, {
      token: me.token,
    });
    assert.deepEqual(
      page2.body.map((a: any) => a.id),
      [alice.account.id],
    );
    // Someone else's group is not found, nor is a key that does not exist.
    assert.equal((await s.request(`/api/v2/notifications/${fav.group_key}`, { token: alice.token })).status, 404);
    assert.equal((await s.request("/api/v2/notifications/ungrouped-1", { token: me.token })).status, 404);
    assert.equal((await s.request("/api/v2/notifications/favourite-1-2", { token: me.token })).status, 404);
    assert.deepEqual((await s.request("/api/v2/notifications/ungrouped-1/accounts", { token: me.token })).body, []);
    // Alice dismissing my group changes nothing of mine.
    const other = await s.request(`/api/v2/notifications/${fav.group_key}/dismiss`, {
      method: "POST",
      token: alice.token,
    });
    assert.equal(other.status, 200);
    assert.equal((await v1(me)).length, 3);
    const dismissed = await s.request(`/api/v2/notifications/${fav.group_key}/dismiss`, {
      method: "POST",
      token: me.token,
    });
    assert.equal(dismissed.status, 200);
    assert.deepEqual(dismissed.body, {});
    assert.deepEqual(
      (await v1(me)).map((n) => n.type),
      ["mention"],
    );
    const ungrouped = await s.request(`/api/v2/notifications/${mention.group_key}/dismiss`, {
      method: "POST",
      token: me.token,
    });
    assert.equal(ungrouped.status, 200);
    assert.deepEqual(await v1(me), []);
    // The policy placeholder is not taken for a group key.
    assert.equal(
      (await s.request("/api/v2/notifications/policy", { token: me.token })).body.for_not_following,
      "accept",
    );
  });

  it("unread_count counts groups newer than the notifications marker", async () => {
    const me = await fresh();
    const st = await post(me, { status: "count me" });
    await post(alice, { status: `@${me.account.username} first` });
    await act(alice, st.id, "favourite");
    await act(bob, st.id, "favourite");
    await act(bob, st.id, "reblog");
    await settled();
    const count = async (q = "") => {
      const r = await s.request(`/api/v2/notifications/unread_count${q}`, { token: me.token });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.count;
    };
    assert.equal(await count(), 3);
    assert.equal(await count("?limit=2"), 2);
    assert.equal(await count("?grouped_types[]=reblog"), 4);
    assert.equal(await count("?types[]=favourite"), 1);
    assert.equal(await count("?exclude_types[]=favourite"), 2);
    const flat = await v1(me);
    const mentionId = flat.find((n) => n.type === "mention").id;
    const saved = await s.request("/api/v1/markers", {
      method: "POST",
      token: me.token,
      json: { notifications: { last_read_id: mentionId } },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(await count(), 2);
    assert.equal((await s.request("/api/v2/notifications/unread_count?limit=-3", { token: me.token })).status, 400);
    // v1 counts notifications, not groups.
    assert.equal((await s.request("/api/v1/notifications/unread_count", { token: me.token })).body.count, 3);
  });

  it("never shows a direct message to someone it does not mention", async () => {
    const me = await fresh();
    const dm = await post(alice, { status: `@${me.account.username} secret`, visibility: "direct" });
    const mine = (await v2(me)).body;
    assert.equal(mine.notification_groups[0].status_id, dm.id);
    assert.equal(mine.statuses[0].visibility, "direct");
    const key = mine.notification_groups[0].group_key;
    for (const u of [carol, dave]) {
      const theirs = (await v2(u)).body;
      assert.ok(!theirs.statuses.some((x: any) => x.id === dm.id));
      assert.equal((await s.request(`/api/v2/notifications/${key}`, { token: u.token })).status, 404);
      assert.deepEqual((await s.request(`/api/v2/notifications/${key}/accounts`, { token: u.token })).body, []);
    }
    // Deleting it removes its group.
    await s.request(`/api/v1/statuses/${dm.id}`, { method: "DELETE", token: alice.token });
    assert.deepEqual((await v2(me)).body.notification_groups, []);
  });

  it("clear deletes everything", async () => {
    const me = await fresh();
    await post(alice, { status: `@${me.account.username} clear` });
    assert.equal((await v2(me)).body.notification_groups.length, 1);
    const r = await s.request("/api/v2/notifications/clear", { method: "POST", token: me.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    assert.deepEqual((await v2(me)).body.notification_groups, []);
  });

  it("keys groups by type (and post) and the hour the group began, for up to 12 hours", () => {
    const at = new Date("2026-11-22T10:30:00.000Z");
    const hour = Math.floor(at.getTime() / 3600_000);
    assert.equal(notificationGroupKey("favourite", "42", "7", at), `favourite-42-${hour}`);
    assert.equal(notificationGroupKey("reblog", "42", "7", at), `reblog-42-${hour}`);
    assert.equal(notificationGroupKey("follow", null, "7", at), `follow-${hour}`);
    assert.equal(notificationGroupKey("admin.sign_up", null, "7", at), `admin.sign_up-${hour}`);
    assert.equal(notificationGroupKey("favourite", "42", "7", at, hour - 11), `favourite-42-${hour - 11}`);
    assert.equal(notificationGroupKey("follow", null, "7", at, hour - 12), `follow-${hour}`, "too old a group");
    for (const type of ["mention", "status", "update", "poll", "follow_request", "admin.report"]) {
      assert.equal(notificationGroupKey(type, "42", "7", at, hour), "ungrouped-7");
    }
  });

  it("a favourite joins its post's group begun up to 12 hours before, not an older one", async () => {
    const me = await fresh();
    const st = await post(me, { status: "long-lived group" });
    const hour = Math.floor(Date.now() / 3600_000);
    const seed = async (hoursAgo: number, bucket: number, postId: string) => {
      const id = s.ctx.ids.next();
      await s.ctx.repos.notifications.insert({
        id,
        account_id: me.account.id,
        from_account_id: dave.account.id,
        type: "favourite",
        status_id: postId,
        activity_id: id,
        group_key: `favourite-${postId}-${bucket}`,
        created_at: new Date(Date.now() - hoursAgo * 3600_000).toISOString(),
      });
    };
    await seed(5, hour - 5, st.id);
    await act(alice, st.id, "favourite");
    const keys = (await v1(me)).map((n) => n.group_key);
    assert.deepEqual(keys, [`favourite-${st.id}-${hour - 5}`, `favourite-${st.id}-${hour - 5}`]);
    const other = await post(me, { status: "stale group" });
    await seed(13, hour - 13, other.id);
    await act(alice, other.id, "favourite");
    const [latest] = await v1(me);
    const bucket = Number(latest.group_key.slice(`favourite-${other.id}-`.length));
    assert.ok(bucket >= hour, "the old group stopped taking notifications: a new one begins this hour");
  });

  it("checks tokens and scopes", async () => {
    const readOnly = await s.createUser("reader", { scopes: "read:notifications" });
    const statusesOnly = await s.createUser("statusreader", { scopes: "read:statuses write:statuses" });
    const writer = await s.createUser("writer", { scopes: "write:notifications" });
    const app = await s.appToken("read write");
    const gets = ["/api/v2/notifications", "/api/v2/notifications/unread_count", "/api/v2/notifications/ungrouped-1"];
    for (const path of [...gets, "/api/v2/notifications/ungrouped-1/accounts"]) {
      assert.equal((await s.request(path)).status, 401, path);
      assert.equal((await s.request(path, { token: statusesOnly.token })).status, 403, path);
      assert.equal((await s.request(path, { token: app })).status, 422, path);
      assert.equal((await s.request(path, { token: writer.token })).status, 403, path);
    }
    assert.equal((await s.request("/api/v2/notifications", { token: readOnly.token })).status, 200);
    for (const path of ["/api/v2/notifications/ungrouped-1/dismiss", "/api/v2/notifications/clear"]) {
      assert.equal((await s.request(path, { method: "POST" })).status, 401, path);
      assert.equal((await s.request(path, { method: "POST", token: readOnly.token })).status, 403, path);
      assert.equal((await s.request(path, { method: "POST", token: app })).status, 422, path);
      assert.equal((await s.request(path, { method: "POST", token: writer.token })).status, 200, path);
    }
  });

  it("works through masto.js (v2.notifications)", async () => {
    const me = await fresh();
    const st = await post(me, { status: "masto" });
    await act(alice, st.id, "favourite");
    await act(bob, st.id, "favourite");
    await post(carol, { status: `@${me.account.username} masto` });
    await settled();
    const client = createRestAPIClient({ url: s.url, accessToken: me.token });
    const page = await client.v2.notifications.list({ limit: 1 });
    assert.equal(page.notificationGroups.length, 1);
    assert.equal(page.notificationGroups[0].type, "mention");
    const paginator = client.v2.notifications.list({ limit: 1 });
    const pages: string[] = [];
    for await (const p of paginator) {
      pages.push(...p.notificationGroups.map((g) => `${g.type}:${g.notificationsCount}`));
      if (pages.length > 5) break;
    }
    // One group per page: the favourites' group comes again, counted up to each page.
    assert.deepEqual(pages, ["mention:1", "favourite:2", "favourite:1"]);
    const all = await client.v2.notifications.list({ groupedTypes: ["favourite"] });
    const fav = all.notificationGroups.find((g) => g.type === "favourite");
    assert.ok(fav);
    assert.equal(fav.notificationsCount, 2);
    assert.equal(fav.sampleAccountIds.length, 2);
    assert.equal(all.statuses.find((x) => x.id === st.id)?.content, "<p>masto</p>");
    const one = await client.v2.notifications.$select(fav.groupKey).fetch();
    assert.equal(one.notificationGroups[0].groupKey, fav.groupKey);
    const accounts = await client.v2.notifications.$select(fav.groupKey).accounts.fetch();
    assert.deepEqual(
      accounts.map((a) => a.username),
      ["bob", "alice"],
    );
    assert.equal((await client.v2.notifications.unreadCount.fetch()).count, 2);
    await client.v2.notifications.$select(fav.groupKey).dismiss();
    assert.equal((await client.v2.notifications.unreadCount.fetch()).count, 1);
  });
});
