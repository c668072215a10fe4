import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const AP = { accept: "application/activity+json" };
const LD = { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' };
const PUBLIC = ["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"];
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const list = (v: unknown): any[] => (v === undefined ? [] : [v].flat());

describe("federation: statuses as notes, collections", () => {
  let s: TestServer;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string; uri: string; url: string };
  };
  const path = (uri: string) => new URL(uri).pathname;

  before(async () => {
    s = await startTestServer();
    base = s.ctx.config.baseUrl;
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(() => s.close());

  it("serves a public status as a Note with tags, media, language and addressing", async () => {
    const media = await s.request("/api/v1/media", {
      method: "POST",
      token: alice.token,
      json: { file: PNG, description: "a dot", focus: "0.5,-0.25" },
    });
    assert.equal(media.status, 200, JSON.stringify(media.body));
    const parent = await post(bob, { status: "first" });
    const st = await post(alice, {
      status: "Hello @bob #Gannet",
      in_reply_to_id: parent.id,
      media_ids: [media.body.id],
      spoiler_text: "cw",
      sensitive: true,
      language: "en",
    });
    assert.equal(st.uri, `${base}/users/alice/statuses/${st.id}`);
    for (const headers of [AP, LD]) {
      const r = await s.request(path(st.uri), { headers });
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type") ?? "", /activity\+json/);
      const n = r.body;
      assert.equal(n.type, "Note");
      assert.equal(n.id, st.uri);
      assert.equal(n.url, st.url);
      assert.equal(n.attributedTo, `${base}/users/alice`);
      assert.equal(n.inReplyTo, parent.uri);
      assert.equal(n.summary, "cw");
      assert.equal(n.sensitive, true);
      assert.match(n.content, /Hello/);
      assert.equal(n.contentMap.en, n.content);
      assert.ok(n.published);
      assert.ok(PUBLIC.includes(list(n.to)[0]), JSON.stringify(n.to));
      assert.deepEqual(list(n.cc).sort(), [`${base}/users/alice/followers`, `${base}/users/bob`].sort());
      const tags = list(n.tag);
      const mention = tags.find((t) => t.type === "Mention");
      assert.equal(mention.href, `${base}/users/bob`);
      assert.equal(mention.name, `@bob@${s.ctx.config.localDomain}`);
      const hashtag = tags.find((t) => t.type === "Hashtag");
      assert.equal(hashtag.name, "#Gannet");
      assert.equal(hashtag.href, `${base}/tags/gannet`);
      const [doc] = list(n.attachment);
      assert.equal(doc.type, "Document");
      assert.equal(doc.mediaType, "image/png");
      assert.equal(doc.name, "a dot");
      assert.match(doc.url, /^http:\/\/localhost:\d+\//);
      assert.equal(typeof doc.blurhash, "string");
      assert.deepEqual(doc.focalPoint, [0.5, -0.25]);
      // The terms are defined, so JSON-LD processors read them too.
      assert.ok(n["@context"].some((c: Record<string, unknown>) => c && typeof c === "object" && "blurhash" in c));
    }
  });

  it("addresses unlisted, private and direct statuses by visibility", async () => {
    const unlisted = await post(alice, { status: "u", visibility: "unlisted" });
    const r = await s.request(path(unlisted.uri), { headers: AP });
    assert.deepEqual(list(r.body.to), [`${base}/users/alice/followers`]);
    assert.ok(PUBLIC.includes(list(r.body.cc)[0]));
    // Followers-only and direct posts are not served to an unsigned fetch.
    const priv = await post(alice, { status: "p", visibility: "private" });
    const direct = await post(alice, { status: "@bob d", visibility: "direct" });
    for (const st of [priv, direct]) {
      const res = await s.request(path(st.uri), { headers: AP });
      assert.equal(res.status, 404, st.uri);
      assert.doesNotMatch(JSON.stringify(res.body), /"type":"Note"/);
    }
  });

  it("serves a poll as a Question with tallies", async () => {
    const st = await post(alice, { status: "Pick", poll: { options: ["a", "b"], expires_in: 3600, multiple: true } });
    const poll = (await s.request(`/api/v1/statuses/${st.id}`, { token: alice.token })).body.poll;
    const vote = await s.request(`/api/v1/polls/${poll.id}/votes`, {
      method: "POST",
      token: bob.token,
      json: { choices: ["1"] },
    });
    assert.equal(vote.status, 200, JSON.stringify(vote.body));
    const r = await s.request(path(st.uri), { headers: AP });
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "Question");
    const options = list(r.body.anyOf);
    assert.deepEqual(
      options.map((o) => [o.type, o.name, o.replies.totalItems]),
      [
        ["Note", "a", 0],
        ["Note", "b", 1],
      ],
    );
    assert.equal(r.body.votersCount, 1);
    assert.ok(r.body.endTime);
    assert.equal(r.body.oneOf, undefined);
  });

  it("pages the outbox with Create and Announce activities", async () => {
    const carol = await s.createUser("carol");
    const target = await post(bob, { status: "boost me" });
    const made: string[] = [];
    for (let i = 0; i < 22; i++) made.push((await post(carol, { status: `n${i}` })).uri);
    const boost = await s.request(`/api/v1/statuses/${target.id}/reblog`, { method: "POST", token: carol.token });
    assert.equal(boost.status, 200);
    await post(carol, { status: "hidden", visibility: "private" });
    const outbox = await s.request("/users/carol/outbox", { headers: AP });
    assert.equal(outbox.status, 200);
    assert.equal(outbox.body.type, "OrderedCollection");
    assert.ok(outbox.body.totalItems >= 23);
    const first = await s.request(path(outbox.body.first) + new URL(outbox.body.first).search, { headers: AP });
    assert.equal(first.body.type, "OrderedCollectionPage");
    const items = first.body.orderedItems;
    assert.equal(items.length, 20);
    assert.equal(items[0].type, "Announce");
    assert.equal(items[0].id, boost.body.uri);
    assert.equal(items[0].object, target.uri);
    assert.equal(items[1].type, "Create");
    assert.equal(items[1].id, `${made[21]}/activity`);
    assert.equal(items[1].object.id, made[21]);
    assert.ok(!JSON.stringify(items).includes("hidden"));
    const next = await s.request(path(first.body.next) + new URL(first.body.next).search, { headers: AP });
    const rest = next.body.orderedItems.map((i: { object: { id: string } }) => i.object.id);
    assert.deepEqual(rest, [made[2], made[1], made[0]]);
  });

  it("counts followers and following and hides their items when the owner hides them", async () => {
    const dave = await s.createUser("dave");
    const erin = await s.createUser("erin");
    await s.request(`/api/v1/accounts/${dave.account.id}/follow`, { method: "POST", token: erin.token });
    await s.settle({ delayed: false });
    const followers = await s.request("/users/dave/followers", { headers: AP });
    assert.equal(followers.body.totalItems, 1);
    const page = await s.request(path(followers.body.first) + new URL(followers.body.first).search, { headers: AP });
    assert.deepEqual(list(page.body.orderedItems), [`${base}/users/erin`]);
    const following = await s.request("/users/erin/following", { headers: AP });
    assert.equal(following.body.totalItems, 1);
    const fpage = await s.request(path(following.body.first) + new URL(following.body.first).search, { headers: AP });
    assert.deepEqual(list(fpage.body.orderedItems), [`${base}/users/dave`]);
    await s.ctx.repos.accounts.update(dave.account.id, { hide_collections: true });
    const hidden = await s.request(path(followers.body.first) + new URL(followers.body.first).search, { headers: AP });
    assert.deepEqual(list(hidden.body.orderedItems), []);
    assert.equal((await s.request("/users/dave/followers", { headers: AP })).body.totalItems, 1);
  });

  it("serves pinned statuses and featured tags", async () => {
    const st = await post(alice, { status: "pinned #Birds" });
    assert.equal(
      (await s.request(`/api/v1/statuses/${st.id}/pin`, { method: "POST", token: alice.token })).status,
      200,
    );
    assert.equal(
      (await s.request("/api/v1/featured_tags", { method: "POST", token: alice.token, json: { name: "Birds" } }))
        .status,
      200,
    );
    const featured = await s.request("/users/alice/collections/featured", { headers: AP });
    assert.equal(featured.status, 200);
    const notes = list(featured.body.orderedItems);
    assert.deepEqual(
      notes.map((n) => [n.type, n.id]),
      [["Note", st.uri]],
    );
    const tags = await s.request("/users/alice/collections/tags", { headers: AP });
    assert.deepEqual(
      list(tags.body.orderedItems).map((t) => [t.type, t.name, t.href]),
      [["Hashtag", "#Birds", `${base}/@alice/tagged/birds`]],
    );
  });

  it("lists a post's public replies in its replies collection", async () => {
    const st = await post(alice, { status: "thread start" });
    const note = await s.request(path(st.uri), { headers: AP });
    const repliesUri = typeof note.body.replies === "string" ? note.body.replies : note.body.replies.id;
    assert.equal(repliesUri, `${st.uri}/replies`);
    const r1 = await post(bob, { status: "@alice reply one", in_reply_to_id: st.id });
    await post(bob, { status: "@alice private reply", in_reply_to_id: st.id, visibility: "private" });
    const r3 = await post(alice, { status: "self reply", in_reply_to_id: st.id, visibility: "unlisted" });
    const collection = await s.request(path(repliesUri), { headers: AP });
    assert.equal(collection.status, 200);
    assert.equal(collection.body.type, "Collection");
    const first = await s.request(path(collection.body.first) + new URL(collection.body.first).search, { headers: AP });
    assert.deepEqual(list(first.body.items), [r1.uri, r3.uri]);
  });
});
