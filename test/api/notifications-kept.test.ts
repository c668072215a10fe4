import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { NotificationFilter } from "../../src/db/repositories/notifications.ts";
import type { IdWindow } from "../../src/lib/pagination.ts";
import { conversationsPage } from "../../src/services/conversations/manage.ts";
import { conversationsJson } from "../../src/services/conversations/views.ts";
import {
  DEFAULT_GROUPED_TYPES,
  type ExpandAccounts,
  groupedNotificationsJson,
} from "../../src/services/notifications/groups.ts";
import { notificationGroupsPage, notificationsPage } from "../../src/services/notifications/inbox.ts";
import { notificationsBytes } from "../../src/services/notifications/views.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// Notifications (v1, grouped v2) and conversations pages are kept in memory while nothing they
// show changes (services/notifications/kept-text.ts): the bytes and Link headers served, made or
// kept, are those the renderers give for the same viewer and parameters at that moment.

interface Case {
  query: string;
  filter?: NotificationFilter;
  window?: Partial<IdWindow>;
  groupedTypes?: readonly string[];
  expand?: ExpandAccounts;
}

describe("kept notifications and conversations pages", () => {
  let s: TestServer;
  let me: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let stranger: TestUser;

  const ok = async (u: TestUser, path: string, method = "POST", json?: unknown) => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    await s.settle();
    return r.body;
  };
  const raw = async (path: string) => {
    const r = await fetch(`${s.url}${path}`, { headers: { Authorization: `Bearer ${me.token}` } });
    assert.equal(r.status, 200, path);
    return { body: await r.text(), link: r.headers.get("link") };
  };

  const V1: Case[] = [
    { query: "" },
    { query: "?types[]=mention", filter: { types: ["mention"] } },
    { query: "?exclude_types[]=favourite&exclude_types[]=follow", filter: { excludeTypes: ["favourite", "follow"] } },
    { query: "?limit=2", window: { limit: 2 } },
    { query: "?include_filtered=true", filter: { includeFiltered: true } },
  ];
  const V2: Case[] = [
    { query: "" },
    { query: "?grouped_types[]=reblog", groupedTypes: ["reblog"] },
    { query: "?expand_accounts=partial_avatars", expand: "partial_avatars" },
    { query: "?limit=2&exclude_types[]=follow", window: { limit: 2 }, filter: { excludeTypes: ["follow"] } },
  ];

  /** What the renderers give now, as the routes called them before pages were kept. */
  const expectedV1 = async (c: Case) => {
    const filter = { includeFiltered: false, ...c.filter };
    const rows = await notificationsPage(s.ctx, me.account.id, filter, { limit: 40, ...c.window });
    return (await notificationsBytes(s.ctx, rows, me.account.id)).toString("utf8");
  };
  const expectedV2 = async (c: Case) => {
    const filter = { includeFiltered: false, ...c.filter };
    const groupedTypes = c.groupedTypes ?? DEFAULT_GROUPED_TYPES;
    const rows = await notificationGroupsPage(s.ctx, me.account.id, filter, { limit: 40, ...c.window }, groupedTypes);
    const json = await groupedNotificationsJson(s.ctx, rows, me.account.id, {
      groupedTypes,
      expandAccounts: c.expand ?? "full",
      paginated: true,
    });
    return JSON.stringify(json);
  };
  const expectedConversations = async () => {
    const rows = await conversationsPage(s.ctx, me.account.id, { limit: 20 });
    return JSON.stringify(await conversationsJson(s.ctx, rows, me.account.id));
  };

  /** Every case asked twice (made, then kept): the same bytes and links, and the renderers' bytes. */
  const same = async (what: string) => {
    const bodies: string[] = [];
    for (const [prefix, cases, expected] of [
      ["/api/v1/notifications", V1, expectedV1],
      ["/api/v2/notifications", V2, expectedV2],
    ] as const) {
      for (const c of cases) {
        const first = await raw(`${prefix}${c.query}`);
        const again = await raw(`${prefix}${c.query}`);
        assert.equal(again.body, first.body, `${what}: ${prefix}${c.query} asked again`);
        assert.equal(again.link, first.link, `${what}: ${prefix}${c.query} links`);
        assert.equal(first.body, await expected(c), `${what}: ${prefix}${c.query} as rendered`);
        bodies.push(first.body);
      }
    }
    const first = await raw("/api/v1/conversations");
    const again = await raw("/api/v1/conversations");
    assert.equal(again.body, first.body, `${what}: conversations asked again`);
    assert.equal(again.link, first.link, `${what}: conversations links`);
    assert.equal(first.body, await expectedConversations(), `${what}: conversations as rendered`);
    bodies.push(first.body);
    return bodies.join("\n");
  };

  let mine: { id: string };

  before(async () => {
    s = await startTestServer({});
    me = await s.createUser("me");
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    dave = await s.createUser("dave");
    stranger = await s.createUser("stranger");
    for (const u of [alice, bob, carol, dave]) await s.follow(me, u);
    mine = await ok(me, "/api/v1/statuses", "POST", { status: "something to favourite" });
    await ok(alice, "/api/v1/statuses", "POST", { status: `@${me.account.username} hello` });
    await ok(alice, `/api/v1/statuses/${mine.id}/favourite`);
    await ok(bob, `/api/v1/statuses/${mine.id}/favourite`);
    await ok(carol, `/api/v1/statuses/${mine.id}/reblog`);
    await ok(dave, `/api/v1/accounts/${me.account.id}/follow`);
    await ok(bob, "/api/v1/statuses", "POST", {
      status: `@${me.account.username} spoilers ahead`,
      visibility: "direct",
    });
    await ok(alice, "/api/v1/statuses", "POST", {
      status: `@${me.account.username} a direct word`,
      visibility: "direct",
    });
    // A mention from an account the reader does not follow, filtered by the reader's policy.
    await ok(me, "/api/v2/notifications/policy", "PATCH", { for_not_following: "filter" });
    await ok(stranger, "/api/v1/statuses", "POST", { status: `@${me.account.username} psst`, visibility: "direct" });
  });
  after(() => s.close());

  it("serves the renderers' bytes and links, made or kept, for each filter and grouping", async () => {
    const body = await same("start");
    assert.match(body, /"type":"mention"/);
    assert.match(body, /"type":"favourite"/);
    assert.match(body, /"type":"reblog"/);
    assert.match(body, /"type":"follow"/);
    assert.match(body, /"last_status"/);
  });

  it("is made anew after a new notification, a dismissal and a read marker", async () => {
    const before = await same("before");
    await ok(dave, "/api/v1/statuses", "POST", { status: `@${me.account.username} new one` });
    const added = await same("a new notification");
    assert.notEqual(added, before);
    const [latest] = JSON.parse((await raw("/api/v1/notifications")).body);
    await ok(me, `/api/v1/notifications/${latest.id}/dismiss`);
    const dismissed = await same("a dismissal");
    assert.ok(!dismissed.includes(`"id":"${latest.id}"`));
    await ok(me, "/api/v1/markers", "POST", { notifications: { last_read_id: latest.id } });
    await same("a read marker");
    const [conversation] = JSON.parse((await raw("/api/v1/conversations")).body);
    await ok(me, `/api/v1/conversations/${conversation.id}/read`);
    const read = await same("a conversation read");
    assert.ok(read.includes(`"id":"${conversation.id}","unread":false`));
  });

  it("is made anew after a keyword filter, a mute, a block and a deleted status", async () => {
    const filter = await ok(me, "/api/v2/filters", "POST", {
      title: "spoilers",
      context: ["notifications", "thread"],
      filter_action: "warn",
      keywords_attributes: [{ keyword: "spoilers" }],
    });
    const warned = await same("a warn filter");
    assert.match(warned, /"filtered":\[\{"filter":\{"id":"/);
    await ok(me, `/api/v2/filters/${filter.id}`, "PUT", { filter_action: "hide" });
    await same("a hide filter");
    await ok(me, `/api/v1/accounts/${carol.account.id}/mute`, "POST", { notifications: true, duration: 0 });
    const muted = await same("a mute");
    assert.ok(!muted.includes(`"type":"reblog"`));
    await ok(me, `/api/v1/accounts/${bob.account.id}/block`);
    const blocked = await same("a block");
    assert.ok(!blocked.includes(`"username":"bob"`));
    const [mention] = JSON.parse((await raw("/api/v1/notifications?types[]=mention")).body);
    assert.equal(mention.account.id, alice.account.id);
    await ok(alice, `/api/v1/statuses/${mention.status.id}`, "DELETE");
    const deleted = await same("a deleted status");
    assert.ok(!deleted.includes(`"id":"${mention.status.id}"`));
  });

  it("is made anew when a status or an account on the page changes", async () => {
    const [mention] = JSON.parse((await raw("/api/v1/notifications?types[]=mention")).body);
    const author = [alice, bob, carol, dave].find((u) => u.account.id === mention.account.id);
    assert.ok(author);
    await same("before the edit");
    await ok(author, `/api/v1/statuses/${mention.status.id}`, "PUT", { status: `@${me.account.username} edited` });
    assert.match(await same("an edited status"), /edited/);
    await ok(dave, "/api/v1/accounts/update_credentials", "PATCH", { display_name: "Dave Renamed" });
    assert.match(await same("a renamed account"), /Dave Renamed/);
  });

  it("is made anew when a mute runs out, with no write", async () => {
    await ok(me, `/api/v1/accounts/${dave.account.id}/mute`, "POST", { notifications: true, duration: 5 });
    const muted = await same("a mute for five seconds");
    assert.ok(!muted.includes(`"username":"dave"`));
    await new Promise((r) => setTimeout(r, 5500));
    const over = await same("the mute over");
    assert.ok(over.includes(`"username":"dave"`));
  });

  it("is made anew when a notification request is accepted", async () => {
    const withFiltered = await raw("/api/v1/notifications?include_filtered=true");
    const [request] = (await s.request("/api/v1/notifications/requests", { token: me.token })).body;
    assert.ok(request, "the stranger's mention waits in a request");
    await ok(me, `/api/v1/notifications/requests/${request.id}/accept`);
    await s.settle();
    const after = await same("an accepted request");
    assert.match(after, /psst/);
    assert.ok(withFiltered.body.includes("psst"));
  });
});
