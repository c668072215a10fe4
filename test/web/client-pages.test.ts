import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HTMLElement } from "node-html-parser";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { signIn, WebClient } from "../helpers/web.ts";

const ids = (doc: HTMLElement, selector: string, attr = "data-id"): string[] =>
  doc.querySelectorAll(selector).map((el) => el.getAttribute(attr) ?? "");
const squash = (el: HTMLElement | null): string => (el?.text ?? "").replace(/\s+/g, " ").trim();

describe("web client pages: notifications, thread, profile, conversations, search", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let web: WebClient;
  let root: string;
  let reply: string;
  let answer: string;
  const post = async (u: TestUser, body: Record<string, unknown>): Promise<string> => {
    const r = await s.request("/api/v1/statuses", { token: u.token, json: body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id;
  };

  before(async () => {
    s = await startTestServer();
    [alice, bob, carol, dave] = await Promise.all(["alice", "bob", "carol", "dave"].map((n) => s.createUser(n)));
    root = await post(alice, { status: "The root of the thread #gannetpages" });
    reply = await post(bob, { status: "@alice a reply from bob", in_reply_to_id: root });
    answer = await post(alice, { status: "@bob alice answers", in_reply_to_id: reply });
    for (const u of [bob, carol, dave]) {
      assert.equal(
        (await s.request(`/api/v1/statuses/${root}/favourite`, { token: u.token, method: "POST" })).status,
        200,
      );
    }
    await post(bob, { status: "@alice a private word", visibility: "direct" });
    await s.settle();
    web = await signIn(s, alice);
  });
  after(() => s?.close());

  it("sends an anonymous visitor to sign in", async () => {
    const anon = new WebClient(s);
    for (const path of [
      "/notifications",
      `/web/statuses/${root}`,
      `/web/accounts/${bob.account.id}`,
      "/conversations",
      "/search?q=x",
    ]) {
      const r = await anon.get(path);
      assert.ok(r.status === 302 || r.status === 303, `${path}: ${r.status}`);
      assert.match(r.headers.get("location") ?? "", /\/auth\/sign_in/);
    }
  });

  it("renders the grouped notifications as the v2 API gives them, several favourites as one group", async () => {
    const api = await s.request("/api/v2/notifications", { token: alice.token });
    const groups = api.body.notification_groups as { group_key: string; type: string; notifications_count: number }[];
    const page = await web.get("/notifications");
    assert.equal(page.status, 200);
    assert.deepEqual(
      ids(page.doc, "#notifications > li.notification", "data-group-key"),
      groups.map((g) => g.group_key),
    );
    const fav = page.doc.querySelector('li.notification[data-type="favourite"]');
    assert.equal(groups.find((g) => g.type === "favourite")?.notifications_count, 3);
    assert.match(squash(fav), /and 2 others favourited your post/);
    assert.match(squash(fav), /The root of the thread/, "the favourited post is shown");
    const mentions = page.doc.querySelectorAll('li.notification[data-type="mention"]');
    assert.ok(mentions.some((li) => /a reply from bob/.test(squash(li))));
    assert.ok(
      mentions.every((li) => li.querySelector('article.status [data-action="reply"]')),
      "mentions carry the post's actions",
    );
    assert.ok(page.doc.querySelector(".client-nav .unread"), "the menu has the unread badge");
    assert.ok(page.doc.querySelector("button#mark-all-read"));

    const only = await web.get("/notifications?filter=mentions");
    const apiMentions = await s.request("/api/v2/notifications?types[]=mention", { token: alice.token });
    assert.deepEqual(
      ids(only.doc, "#notifications > li.notification", "data-group-key"),
      apiMentions.body.notification_groups.map((g: { group_key: string }) => g.group_key),
    );
    assert.equal(only.doc.querySelectorAll('li.notification[data-type="favourite"]').length, 0);
  });

  it("renders follow requests with their buttons and moderation warnings with their text", async () => {
    const gina = await s.createUser("gina");
    const hank = await s.createUser("hank");
    const admin = await s.createUser("ada", { role: "Admin", scopes: "read write admin:read admin:write" });
    const locked = await s.request("/api/v1/accounts/update_credentials", {
      token: gina.token,
      method: "PATCH",
      json: { locked: true },
    });
    assert.equal(locked.status, 200);
    assert.equal(
      (await s.request(`/api/v1/accounts/${gina.account.id}/follow`, { token: hank.token, method: "POST" })).status,
      200,
    );
    const warned = await s.request(`/api/v1/admin/accounts/${gina.account.id}/action`, {
      token: admin.token,
      json: { type: "none", text: "Please keep it civil." },
    });
    assert.equal(warned.status, 200);
    await s.settle();
    const api = await s.request("/api/v2/notifications", { token: gina.token });
    const types = api.body.notification_groups.map((g: { type: string }) => g.type).sort();
    assert.deepEqual(types, ["follow_request", "moderation_warning"]);
    const page = await (await signIn(s, gina)).get("/notifications");
    const request = page.doc.querySelector('li.notification[data-type="follow_request"]');
    assert.match(squash(request), /hank asked to follow you/);
    for (const action of ["authorize", "reject"]) {
      assert.equal(
        request?.querySelector(`button[data-follow-request="${action}"]`)?.getAttribute("data-account-id"),
        hank.account.id,
      );
    }
    const warning = page.doc.querySelector('li.notification[data-type="moderation_warning"]');
    assert.match(squash(warning), /A moderator took action on your account/);
    assert.equal(squash(warning?.querySelector(".warning-text") ?? null), "Please keep it civil.");
    assert.ok(warning?.querySelector("a.warning-link[href]"));
  });

  it("highlights the notifications newer than the notifications marker", async () => {
    const page = await web.get("/notifications");
    assert.equal(
      page.doc.querySelectorAll("li.notification.unread").length,
      page.doc.querySelectorAll("li.notification").length,
    );
    const fav = page.doc.querySelector('li.notification[data-type="favourite"]')?.getAttribute("data-id") ?? "";
    const marked = await s.request("/api/v1/markers", {
      token: alice.token,
      json: { notifications: { last_read_id: fav } },
    });
    assert.equal(marked.status, 200);
    const again = await web.get("/notifications");
    for (const li of again.doc.querySelectorAll("li.notification")) {
      const id = li.getAttribute("data-id") ?? "";
      const newer = id.length > fav.length || (id.length === fav.length && id > fav);
      assert.equal(li.classList.contains("unread"), newer, `${li.getAttribute("data-type")} ${id}`);
    }
    assert.ok(again.doc.querySelectorAll("li.notification.unread").length > 0, "the direct mention came later");
  });

  it("shows a thread with its ancestors, the post highlighted and its descendants", async () => {
    const api = await s.request(`/api/v1/statuses/${reply}/context`, { token: alice.token });
    const page = await web.get(`/web/statuses/${reply}`);
    assert.equal(page.status, 200);
    assert.deepEqual(
      ids(page.doc, "#thread > li.ancestor"),
      api.body.ancestors.map((x: { id: string }) => x.id),
    );
    assert.deepEqual(ids(page.doc, "#thread > li.ancestor"), [root]);
    assert.deepEqual(ids(page.doc, "#thread > li.focus"), [reply]);
    assert.deepEqual(ids(page.doc, "#thread > li.descendant"), [answer]);
    assert.match(squash(page.doc.querySelector("#thread > li.focus")), /a reply from bob/);
    assert.equal((await web.get("/web/statuses/99999999")).status, 404);
    const hidden = await post(bob, { status: "@carol only for carol", visibility: "direct" });
    assert.equal((await s.request(`/api/v1/statuses/${hidden}`, { token: alice.token })).status, 404);
    assert.equal((await web.get(`/web/statuses/${hidden}`)).status, 404);
  });

  it("shows a profile with the relationship state and the account's posts", async () => {
    const before = await web.get(`/web/accounts/${carol.account.id}`);
    assert.equal(before.status, 200);
    const follow = before.doc.querySelector(`button[data-account-action][data-account-id="${carol.account.id}"]`);
    assert.equal(follow?.getAttribute("data-account-action"), "follow");
    assert.equal(squash(follow), "Follow");
    assert.ok(before.doc.querySelector('button[data-account-action="mute"]'));
    assert.ok(before.doc.querySelector('button[data-account-action="block"]'));
    assert.ok(before.doc.querySelector('button[data-account-action="report"]'));
    assert.doesNotMatch(squash(before.doc.querySelector(".relationship")), /Following/);

    assert.equal(
      (await s.request(`/api/v1/accounts/${carol.account.id}/follow`, { token: alice.token, method: "POST" })).status,
      200,
    );
    await post(carol, { status: "carol writes something" });
    const rel = await s.request(`/api/v1/accounts/relationships?id[]=${carol.account.id}`, { token: alice.token });
    assert.equal(rel.body[0].following, true);
    const after = await web.get(`/web/accounts/${carol.account.id}`);
    assert.match(squash(after.doc.querySelector(".relationship")), /Following/);
    assert.ok(after.doc.querySelector('button[data-account-action="unfollow"]'));
    assert.equal(after.doc.querySelector('button[data-account-action="follow"]'), null);
    const statuses = await s.request(`/api/v1/accounts/${carol.account.id}/statuses?exclude_replies=true`, {
      token: alice.token,
    });
    assert.deepEqual(
      ids(after.doc, "#account-statuses > li[data-id]"),
      statuses.body.map((x: { id: string }) => x.id),
    );
    assert.match(squash(after.doc.querySelector("#account-statuses")), /carol writes something/);
    assert.match(squash(after.doc.querySelector(".profile-counts")), /1 follower/);
    // Pinned posts head the posts tab, as `pinned=true` gives them.
    const pin = await post(carol, { status: "carol pins this" });
    assert.equal((await s.request(`/api/v1/statuses/${pin}/pin`, { token: carol.token, method: "POST" })).status, 200);
    const pinnedApi = await s.request(`/api/v1/accounts/${carol.account.id}/statuses?pinned=true`, {
      token: alice.token,
    });
    const withPin = await web.get(`/web/accounts/${carol.account.id}`);
    assert.deepEqual(
      ids(withPin.doc, "#account-pinned > li[data-id]"),
      pinnedApi.body.map((x: { id: string }) => x.id),
    );
    assert.deepEqual(ids(withPin.doc, "#account-pinned > li[data-id]"), [pin]);

    // Bob's posts with replies, and alice's own profile (no follow button, an edit link).
    const replies = await web.get(`/web/accounts/${bob.account.id}?tab=replies`);
    const apiReplies = await s.request(`/api/v1/accounts/${bob.account.id}/statuses`, { token: alice.token });
    assert.deepEqual(
      ids(replies.doc, "#account-statuses > li[data-id]"),
      apiReplies.body.map((x: { id: string }) => x.id),
    );
    const own = await web.get(`/web/accounts/${alice.account.id}`);
    assert.equal(own.doc.querySelector("button[data-account-action]"), null);
    assert.ok(own.doc.querySelector('a[href="/settings/profile"]'));

    const followers = await web.get(`/web/accounts/${carol.account.id}/followers`);
    assert.deepEqual(ids(followers.doc, "#account-list > li.account"), [alice.account.id]);
    assert.equal((await web.get("/web/accounts/99999999")).status, 404);
  });

  it("lists direct conversations as the API does", async () => {
    const api = await s.request("/api/v1/conversations", { token: alice.token });
    assert.ok(api.body.length > 0);
    const page = await web.get("/conversations");
    assert.equal(page.status, 200);
    assert.deepEqual(
      ids(page.doc, "#conversations > li.conversation"),
      api.body.map((x: { id: string }) => x.id),
    );
    const first = page.doc.querySelector("#conversations > li.conversation");
    assert.match(squash(first), /a private word/);
    assert.match(squash(first?.querySelector(".participants") ?? null), /bob/);
    assert.equal(first?.classList.contains("unread"), api.body[0].unread);
    assert.equal(
      first?.querySelector("a[data-conversation-id]")?.getAttribute("href"),
      `/web/statuses/${api.body[0].last_status.id}`,
    );
  });

  it("searches accounts, hashtags and posts as the v2 search API", async () => {
    const empty = await web.get("/search");
    assert.equal(empty.status, 200);
    assert.ok(empty.doc.querySelector('form[action="/search"] input[name="q"]'));
    const page = await web.get("/search?q=bob");
    const api = await s.request("/api/v2/search?q=bob&resolve=true", { token: alice.token });
    assert.deepEqual(
      ids(page.doc, "#results-accounts li.account"),
      api.body.accounts.map((a: { id: string }) => a.id),
    );
    assert.ok(ids(page.doc, "#results-accounts li.account").includes(bob.account.id));
    const tags = await web.get("/search?q=%23gannetpages");
    assert.ok(tags.doc.querySelector('#results-hashtags a[href="/web/tags/gannetpages"]'));
    const apiPosts = await s.request("/api/v2/search?q=root&type=statuses", { token: alice.token });
    const posts = await web.get("/search?q=root");
    assert.deepEqual(
      ids(posts.doc, "#results-statuses .statuses > li[data-id]"),
      apiPosts.body.statuses.map((x: { id: string }) => x.id),
    );
    assert.match(squash((await web.get("/search?q=zzzznothing")).doc.querySelector(".client-main")), /Nothing found/);
  });
});
