import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket, type WsClient, type WsMessage } from "../helpers/streaming.ts";

/**
 * What a subscriber may not see never reaches it. Absence is shown without waiting: after the
 * forbidden post's jobs settled, a marker post goes to the same stream; events of one stream are
 * handled in order, so once the marker arrived the forbidden one would have too.
 */
describe("streaming: only what the subscriber may see", () => {
  let s: TestServer;
  let n = 0;
  const open: WsClient[] = [];
  const user = (name: string) => s.createUser(`${name}${++n}`);
  const socket = async (u: TestUser, stream: Record<string, string>) => {
    const c = await openSocket(s.url, { token: u.token, query: stream });
    open.push(c);
    // A later message is answered once the subscription is in force.
    c.send({ type: "subscribe", stream: "nonsense" });
    await c.inbox.next((m) => m.error !== undefined, "the subscription");
    return c;
  };
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const call = async (u: TestUser, path: string, json: Record<string, unknown> = {}, method = "POST") => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.ok(r.status < 300, `${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const has = (id: string) => (m: WsMessage) => m.payload?.includes(`"id":"${id}"`) === true;
  const payloadOf = (m: WsMessage) => JSON.parse(m.payload ?? "{}");
  /** Waits for `markerId` on `c` (after all jobs ran), then checks none of `hidden` came. */
  const neverGot = async (c: WsClient, markerId: string, hidden: string[]) => {
    await c.inbox.next(has(markerId), "the marker");
    for (const id of hidden) assert.ok(!c.inbox.received.some(has(id)), `${id} must not reach the subscriber`);
  };
  const remoteAccount = async (domain: string) => {
    const now = new Date().toISOString();
    const id = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id,
      username: `r${id}`,
      domain,
      uri: `https://${domain}/users/r${id}`,
      url: `https://${domain}/@r${id}`,
      created_at: now,
      updated_at: now,
    });
    return id;
  };
  const remotePost = async (accountId: string, domain: string) => {
    const now = new Date().toISOString();
    const id = s.ctx.ids.next();
    await s.ctx.repos.statuses.insert({
      id,
      uri: `https://${domain}/statuses/${id}`,
      url: null,
      account_id: accountId,
      text: "",
      content: "<p>remote</p>",
      visibility: "public",
      sensitive: false,
      local: false,
      created_at: now,
      updated_at: now,
    });
    await s.ctx.queue.enqueue("feeds.fan-out", { statusId: id });
    return id;
  };

  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    for (const c of open) await c.close();
    await s.close();
  });

  it("blocks both ways and mutes (of the author or a mentioned account) keep posts off public streams", async () => {
    const viewer = await user("viewer");
    const blocked = await user("blocked");
    const blocker = await user("blocker");
    const muted = await user("muted");
    const mentioner = await user("mentioner");
    const other = await user("other");
    await call(viewer, `/api/v1/accounts/${blocked.account.id}/block`);
    await call(blocker, `/api/v1/accounts/${viewer.account.id}/block`);
    await call(viewer, `/api/v1/accounts/${muted.account.id}/mute`);
    const c = await socket(viewer, { stream: "public:local" });
    const hidden = [
      (await post(blocked, { status: "from someone I block" })).id,
      (await post(blocker, { status: "from someone who blocks me" })).id,
      (await post(muted, { status: "from someone I mute" })).id,
      (await post(mentioner, { status: `about @${muted.account.username}` })).id,
    ];
    await s.settle();
    const marker = await post(other, { status: "marker" });
    await neverGot(c, marker.id, hidden);
    // The muted account itself still gets its own post.
    const own = await socket(muted, { stream: "public:local" });
    const mine = await post(muted, { status: "mine" });
    await own.inbox.next(has(mine.id), "own post");
  });

  it("a blocked domain's posts stay off the public streams, unless its author is followed", async () => {
    const viewer = await user("viewer");
    await call(viewer, "/api/v1/domain_blocks", { domain: "blocked.example" });
    const stranger = await remoteAccount("blocked.example");
    const friend = await remoteAccount("blocked.example");
    const elsewhere = await remoteAccount("fine.example");
    await s.follow(viewer, { account: { id: friend } as TestUser["account"] });
    const c = await socket(viewer, { stream: "public:remote" });
    const hidden = await remotePost(stranger, "blocked.example");
    const followed = await remotePost(friend, "blocked.example");
    await s.settle();
    const marker = await remotePost(elsewhere, "fine.example");
    await c.inbox.next(has(followed), "the followed author's post");
    await neverGot(c, marker, [hidden]);
  });

  it("visibility: private posts reach followers' homes only, direct posts the mentioned, unlisted no public stream", async () => {
    const author = await user("author");
    const follower = await user("follower");
    const stranger = await user("stranger");
    await s.follow(follower, author);
    await s.follow(stranger, follower);
    const followerHome = await socket(follower, { stream: "user" });
    const strangerHome = await socket(stranger, { stream: "user" });
    const followerDirect = await socket(follower, { stream: "direct" });
    const strangerDirect = await socket(stranger, { stream: "direct" });
    const pub = await socket(stranger, { stream: "public" });
    const priv = await post(author, { status: "followers only", visibility: "private" });
    const unlisted = await post(author, { status: "quiet", visibility: "unlisted" });
    const direct = await post(author, { status: `psst @${follower.account.username}`, visibility: "direct" });
    const got = await followerHome.inbox.next(has(priv.id), "the private post at home");
    assert.equal(payloadOf(got).visibility, "private");
    await followerHome.inbox.next(has(unlisted.id), "the unlisted post at home");
    const conversation = await followerDirect.event("conversation", undefined, "the conversation");
    const conv = payloadOf(conversation);
    assert.equal(conv.last_status.id, direct.id);
    assert.deepEqual(
      conv.accounts.map((a: { id: string }) => a.id),
      [author.account.id],
    );
    assert.equal(conv.unread, true);
    await s.settle();
    // Markers: the follower posts publicly (the stranger follows them) and mentions the stranger directly.
    const marker = await post(follower, { status: "marker" });
    await neverGot(strangerHome, marker.id, [priv.id, unlisted.id, direct.id]);
    await neverGot(pub, marker.id, [priv.id, unlisted.id, direct.id]);
    await post(follower, { status: `hi @${stranger.account.username}`, visibility: "direct" });
    await strangerDirect.event("conversation", undefined, "the stranger's own conversation");
    assert.ok(!strangerDirect.inbox.received.some(has(direct.id)));
    // Deleting the direct post tells the direct stream.
    await call(author, `/api/v1/statuses/${direct.id}`, {}, "DELETE");
    const del = await followerDirect.event("delete", (p) => p === direct.id);
    assert.deepEqual(del.stream, ["direct"]);
  });

  it("boosts reach followers' home streams with the boosted post, not one who blocks its author", async () => {
    const author = await user("author");
    const booster = await user("booster");
    const fan = await user("fan");
    const blocker = await user("blocker");
    await s.follow(fan, booster);
    await s.follow(blocker, booster);
    await call(blocker, `/api/v1/accounts/${author.account.id}/block`);
    const fanHome = await socket(fan, { stream: "user" });
    const blockerHome = await socket(blocker, { stream: "user" });
    const original = await post(author, { status: "worth sharing" });
    const boost = await call(booster, `/api/v1/statuses/${original.id}/reblog`);
    const got = payloadOf(await fanHome.inbox.next(has(boost.id), "the boost"));
    assert.equal(got.reblog.id, original.id);
    assert.equal(got.account.id, booster.account.id);
    await s.settle();
    const marker = await post(booster, { status: "marker" });
    await neverGot(blockerHome, marker.id, [boost.id, original.id]);
  });

  it("lists get their members' posts; an exclusive list keeps them off the home stream", async () => {
    const owner = await user("owner");
    const member = await user("member");
    const other = await user("other");
    await s.follow(owner, member);
    await s.follow(owner, other);
    const list = await call(owner, "/api/v1/lists", { title: "close", exclusive: true });
    await call(owner, `/api/v1/lists/${list.id}/accounts`, { account_ids: [member.account.id] });
    const listStream = await socket(owner, { stream: "list", list: list.id });
    const home = await socket(owner, { stream: "user" });
    const inList = await post(member, { status: "for the list" });
    const m = await listStream.inbox.next(has(inList.id), "the member's post on the list");
    assert.deepEqual(m.stream, ["list", list.id]);
    await s.settle();
    const marker = await post(other, { status: "not a member" });
    await neverGot(home, marker.id, [inList.id]);
    // The list never got the non-member's post: a later member post comes after it.
    const later = await post(member, { status: "later" });
    await neverGot(listStream, later.id, [marker.id]);
  });

  it("filters: hide drops, warn marks `filtered`, each for the stream's context", async () => {
    const viewer = await user("viewer");
    const author = await user("author");
    await call(viewer, "/api/v2/filters", {
      title: "no spoilers",
      context: ["public"],
      filter_action: "hide",
      keywords_attributes: [{ keyword: "spoiler" }],
    });
    await call(viewer, "/api/v2/filters", {
      title: "vegetables",
      context: ["public"],
      filter_action: "warn",
      keywords_attributes: [{ keyword: "kale" }],
    });
    await call(viewer, "/api/v2/filters", {
      title: "home only",
      context: ["home"],
      filter_action: "hide",
      keywords_attributes: [{ keyword: "cabbage" }],
    });
    const c = await socket(viewer, { stream: "public:local" });
    const authorSees = await socket(author, { stream: "public:local" });
    const hidden = await post(author, { status: "a spoiler ahead" });
    const warned = await post(author, { status: "kale salad" });
    const homeOnly = await post(author, { status: "cabbage soup" });
    const w = payloadOf(await c.inbox.next(has(warned.id), "the warned post"));
    assert.equal(w.filtered.length, 1);
    assert.equal(w.filtered[0].filter.title, "vegetables");
    assert.deepEqual(w.filtered[0].keyword_matches, ["kale"]);
    const h = payloadOf(await c.inbox.next(has(homeOnly.id), "the home-only filtered post"));
    assert.deepEqual(h.filtered, []);
    // The author has no filters: the same post, unmarked.
    assert.deepEqual(payloadOf(await authorSees.inbox.next(has(warned.id), "author's copy")).filtered, []);
    await authorSees.inbox.next(has(hidden.id), "the author's own copy of the hidden post");
    await s.settle();
    const marker = await post(author, { status: "marker" });
    await neverGot(c, marker.id, [hidden.id]);
  });

  it("each subscriber gets its own flags: favourited, pinned, and `status.update` after an edit", async () => {
    const author = await user("author");
    const fan = await user("fan");
    const bystander = await user("bystander");
    const p = await post(author, { status: "first version" });
    await call(fan, `/api/v1/statuses/${p.id}/favourite`);
    await call(fan, `/api/v1/statuses/${p.id}/bookmark`);
    const fanStream = await socket(fan, { stream: "public" });
    const byStream = await socket(bystander, { stream: "public" });
    const authorStream = await socket(author, { stream: "public" });
    const r = await s.request(`/api/v1/statuses/${p.id}`, {
      method: "PUT",
      token: author.token,
      json: { status: "second version" },
    });
    assert.equal(r.status, 200);
    const isEdit = (m: WsMessage) => m.event === "status.update" && has(p.id)(m);
    const mine = payloadOf(await fanStream.inbox.next(isEdit, "the fan's edit"));
    const theirs = payloadOf(await byStream.inbox.next(isEdit, "the bystander's edit"));
    const own = payloadOf(await authorStream.inbox.next(isEdit, "the author's edit"));
    assert.equal(mine.content, "<p>second version</p>");
    assert.ok(mine.edited_at);
    assert.equal(mine.favourited, true);
    assert.equal(mine.bookmarked, true);
    assert.equal(mine.favourites_count, 1);
    assert.equal(theirs.favourited, false);
    assert.equal(theirs.bookmarked, false);
    assert.equal(own.pinned, false);
    assert.equal("pinned" in theirs, false);
    // The same JSON the REST API gives each of them.
    const rest = await s.request(`/api/v1/statuses/${p.id}`, { token: fan.token });
    assert.deepEqual({ ...mine, filtered: undefined }, { ...rest.body, filtered: undefined });
  });
});
