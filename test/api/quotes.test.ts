import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { changeQuoteState } from "../../src/services/quotes/state.ts";
import { newSubscriptionKeys } from "../helpers/push-receiver.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSse } from "../helpers/streaming.ts";

// Quote posts (Mastodon 4.5) through the client API: quoting under each policy, the refusals,
// Quote / ShallowQuote / QuoteApproval for several readers, the quotes list, revoking, the
// interaction policy, counts after deletes, and the quote and quoted_update notifications.
describe("quote posts", () => {
  let s: TestServer;
  let alice: TestUser; // the quoted author
  let bob: TestUser; // follows alice
  let carol: TestUser; // follows nobody
  let dave: TestUser; // blocked by alice
  let erin: TestUser; // blocks alice

  const req = (u: TestUser | undefined, method: string, path: string, json?: Record<string, unknown>) =>
    s.request(path, { method, token: u?.token, json });
  const ok = async (u: TestUser | undefined, method: string, path: string, json?: Record<string, unknown>) => {
    const r = await req(u, method, path, json);
    assert.equal(r.status, 200, `${method} ${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const post = (u: TestUser, json: Record<string, unknown>) => ok(u, "POST", "/api/v1/statuses", json);
  const get = (u: TestUser | undefined, id: string) => ok(u, "GET", `/api/v1/statuses/${id}`);

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
    [alice, bob, carol, dave, erin] = await Promise.all(
      ["alice", "bob", "carol", "dave", "erin"].map((n) => s.createUser(n)),
    );
    await s.follow(bob, alice);
    await ok(alice, "POST", `/api/v1/accounts/${dave.account.id}/block`);
    await ok(erin, "POST", `/api/v1/accounts/${alice.account.id}/block`);
  });
  after(() => s.close());

  it("quotes a public post at once, with Quote at the top, counts and QuoteApproval per reader", async () => {
    const original = await post(alice, { status: "quote me" });
    assert.deepEqual(original.quote, null);
    assert.deepEqual(original.quote_approval, { automatic: ["public"], manual: [], current_user: "automatic" });
    assert.equal(original.quotes_count, 0);

    // Through masto, as a client posts it.
    const masto = createRestAPIClient({ url: s.url, accessToken: bob.token });
    const quoting = (await masto.v1.statuses.create({
      status: "look at this",
      quotedStatusId: original.id,
    } as never)) as unknown as Record<string, any>;
    // masto gives the entity in camelCase.
    assert.equal(quoting.quote.state, "accepted");
    assert.equal(quoting.quote.quotedStatus.id, original.id);
    assert.equal(quoting.quote.quotedStatus.quote, null);
    assert.equal(quoting.quote.quotedStatus.quotesCount, 1);

    assert.equal((await get(alice, original.id)).quotes_count, 1);
    assert.equal((await get(bob, original.id)).quote_approval.current_user, "automatic");
    assert.equal((await get(undefined, original.id)).quote_approval.current_user, "denied");

    // A quote of the quote: its quoted post carries a ShallowQuote.
    const nested = await post(carol, { status: "meta", quoted_status_id: quoting.id });
    assert.equal(nested.quote.quoted_status.id, quoting.id);
    assert.deepEqual(nested.quote.quoted_status.quote, { state: "accepted", quoted_status_id: original.id });

    // A boost of a post can be quoted: the quote is of the boosted post.
    const boost = await ok(carol, "POST", `/api/v1/statuses/${original.id}/reblog`);
    const viaBoost = await post(carol, { status: "via boost", quoted_status_id: boost.id });
    assert.equal(viaBoost.quote.quoted_status.id, original.id);
    assert.equal(boost.quote_approval.current_user, "automatic", "a boost shows its post's QuoteApproval");

    // The home timeline (kept renders) shows the same JSON as the post itself.
    await s.settle();
    const home = await ok(bob, "GET", "/api/v1/timelines/home?limit=40");
    const inHome = home.find((x: { id: string }) => x.id === quoting.id);
    assert.deepEqual(inHome, await get(bob, quoting.id));
    const aliceInHome = home.find((x: { id: string }) => x.id === original.id);
    assert.deepEqual(aliceInHome, await get(bob, original.id));
  });

  it("streams a quote post to followers as the REST API renders it for them", async () => {
    const stream = await openSse(s.url, "/api/v1/streaming/user", bob.token);
    try {
      const original = await post(alice, { status: "streamed original" });
      const quoting = await post(alice, { status: "streamed quote", quoted_status_id: original.id });
      const event = await stream.event("update", (data) => JSON.parse(data).id === quoting.id);
      const payload = JSON.parse(event.data);
      assert.equal(payload.quote.quoted_status.id, original.id);
      assert.deepEqual(payload, await get(bob, quoting.id));
    } finally {
      stream.close();
    }
  });

  it("follows the followers and nobody policies; the author may always quote", async () => {
    const followersOnly = await post(alice, { status: "followers may quote", quote_approval_policy: "followers" });
    assert.deepEqual(followersOnly.quote_approval, { automatic: ["followers"], manual: [], current_user: "automatic" });
    assert.equal((await get(bob, followersOnly.id)).quote_approval.current_user, "automatic");
    assert.equal((await get(carol, followersOnly.id)).quote_approval.current_user, "denied");
    const refused = await req(carol, "POST", "/api/v1/statuses", { status: "no", quoted_status_id: followersOnly.id });
    assert.equal(refused.status, 404);
    assert.match(refused.body.error, /quote/);
    assert.equal((await post(bob, { status: "yes", quoted_status_id: followersOnly.id })).quote.state, "accepted");

    const nobody = await post(alice, { status: "nobody may quote", quote_approval_policy: "nobody" });
    assert.deepEqual(nobody.quote_approval, { automatic: [], manual: [], current_user: "automatic" });
    assert.equal((await get(bob, nobody.id)).quote_approval.current_user, "denied");
    assert.equal(
      (await req(bob, "POST", "/api/v1/statuses", { status: "x", quoted_status_id: nobody.id })).status,
      404,
    );
    assert.equal((await post(alice, { status: "mine", quoted_status_id: nobody.id })).quote.state, "accepted");
  });

  it("refuses private and direct posts, blocked authors, unknown posts, and bad policies", async () => {
    const priv = await post(alice, { status: "followers only", visibility: "private" });
    assert.deepEqual(priv.quote_approval, { automatic: [], manual: [], current_user: "automatic" });
    const asFollower = await req(bob, "POST", "/api/v1/statuses", { status: "x", quoted_status_id: priv.id });
    assert.equal(asFollower.status, 404);
    // The author quotes her own private post: the quote stays private.
    const own = await post(alice, { status: "again", quoted_status_id: priv.id, visibility: "public" });
    assert.equal(own.visibility, "private");
    assert.equal(own.quote.state, "accepted");
    // Carol does not follow alice: the quote's quoted post is hidden from her.
    const mention = await post(alice, { status: `@carol see`, quoted_status_id: priv.id, visibility: "direct" });
    const seen = await get(carol, mention.id);
    assert.deepEqual(seen.quote, { state: "unauthorized", quoted_status: null });

    const dm = await post(alice, { status: "@bob secret", visibility: "direct" });
    assert.equal((await req(bob, "POST", "/api/v1/statuses", { status: "x", quoted_status_id: dm.id })).status, 404);
    // A direct post quoting someone it does not mention is refused.
    const pub = await post(alice, { status: "public" });
    const unmentioned = await req(bob, "POST", "/api/v1/statuses", {
      status: "psst @carol",
      visibility: "direct",
      quoted_status_id: pub.id,
    });
    assert.equal(unmentioned.status, 422);
    // Alice blocks dave; erin blocks alice: neither may quote her.
    for (const u of [dave, erin]) {
      assert.equal((await req(u, "POST", "/api/v1/statuses", { status: "x", quoted_status_id: pub.id })).status, 404);
    }
    assert.equal(
      (await req(bob, "POST", "/api/v1/statuses", { status: "x", quoted_status_id: "999999999" })).status,
      404,
    );
    const bad = await req(bob, "POST", "/api/v1/statuses", { status: "x", quote_approval_policy: "everyone" });
    assert.equal(bad.status, 422);
  });

  it("hides the quoted post by the reader's blocks and mutes, and shows a remote quote pending", async () => {
    const pub = await post(alice, { status: "shown?" });
    const quoting = await post(bob, { status: "quoting", quoted_status_id: pub.id });
    // Alice blocks dave: he may not see her post. Erin blocks alice: her client hides it.
    assert.deepEqual((await get(dave, quoting.id)).quote, { state: "unauthorized", quoted_status: null });
    const blocked = await get(erin, quoting.id);
    assert.equal(blocked.quote.state, "blocked_account");
    assert.equal(blocked.quote.quoted_status.id, pub.id);
    await ok(carol, "POST", `/api/v1/accounts/${alice.account.id}/mute`);
    const muted = await get(carol, quoting.id);
    assert.equal(muted.quote.state, "muted_account");
    assert.equal(muted.quote.quoted_status.id, pub.id);
    await ok(carol, "POST", `/api/v1/accounts/${alice.account.id}/unmute`);
    await ok(carol, "POST", `/api/v1/accounts/${alice.account.id}/block`);
    assert.equal((await get(carol, quoting.id)).quote.state, "blocked_account");
    await ok(carol, "POST", `/api/v1/accounts/${alice.account.id}/unblock`);
    assert.equal((await get(carol, quoting.id)).quote.state, "accepted");

    // A remote post: its author is asked (federation), the quote waits.
    const now = new Date().toISOString();
    const remoteId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: remoteId,
      username: "far",
      domain: "remote.test",
      uri: "https://remote.test/users/far",
      url: "https://remote.test/@far",
      created_at: now,
      updated_at: now,
    });
    const remotePost = s.ctx.ids.next();
    await s.ctx.repos.statuses.insert({
      id: remotePost,
      uri: `https://remote.test/statuses/${remotePost}`,
      url: null,
      account_id: remoteId,
      text: "",
      content: "<p>from afar</p>",
      visibility: "public",
      sensitive: false,
      local: false,
      quote_policy: JSON.stringify({ automatic: [], manual: ["public"] }),
      created_at: now,
      updated_at: now,
    });
    assert.equal((await get(bob, remotePost)).quote_approval.current_user, "manual");
    const pending = await post(bob, { status: "far quote", quoted_status_id: remotePost });
    assert.deepEqual(pending.quote, { state: "pending", quoted_status: null });
    assert.equal((await get(bob, remotePost)).quotes_count, 0);
    const row = await s.ctx.repos.quotes.byQuotingStatus(pending.id);
    assert.match(row?.activityUri ?? "", /\/quote_requests\//);
    // The remote author accepts (what federation does on an Accept): counted and shown.
    const accepted = await changeQuoteState(s.ctx, row?.id ?? "", "accepted", {
      approvalUri: "https://remote.test/stamps/1",
    });
    assert.equal(accepted?.approvalUri, "https://remote.test/stamps/1");
    const shown = await get(undefined, pending.id);
    assert.equal(shown.quote.state, "accepted");
    assert.equal(shown.quote.quoted_status.id, remotePost);
    assert.equal((await get(bob, remotePost)).quotes_count, 1);
  });

  it("lists the accepted quotes to the author only, paged, and revokes one", async () => {
    const original = await post(alice, { status: "list my quotes" });
    const q1 = await post(bob, { status: "one", quoted_status_id: original.id });
    const q2 = await post(carol, { status: "two", quoted_status_id: original.id });
    const path = `/api/v1/statuses/${original.id}/quotes`;
    const all = await req(alice, "GET", path);
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((x: { id: string }) => x.id),
      [q2.id, q1.id],
    );
    assert.equal((await req(bob, "GET", path)).status, 403);
    const first = await req(alice, "GET", `${path}?limit=1`);
    assert.deepEqual(
      first.body.map((x: { id: string }) => x.id),
      [q2.id],
    );
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    assert.ok(next, "a next link on a full page");
    const second = await req(alice, "GET", new URL(next).pathname + new URL(next).search);
    assert.deepEqual(
      second.body.map((x: { id: string }) => x.id),
      [q1.id],
    );

    const revokePath = `/api/v1/statuses/${original.id}/quotes/${q1.id}/revoke`;
    assert.equal((await req(bob, "POST", revokePath)).status, 403);
    assert.equal((await req(alice, "POST", `/api/v1/statuses/${original.id}/quotes/123/revoke`)).status, 404);
    const revoked = await ok(alice, "POST", revokePath);
    assert.equal(revoked.id, q1.id);
    assert.deepEqual(revoked.quote, { state: "revoked", quoted_status: null });
    assert.deepEqual((await get(bob, q1.id)).quote, { state: "revoked", quoted_status: null });
    assert.equal((await get(alice, original.id)).quotes_count, 1);
    assert.deepEqual(
      (await ok(alice, "GET", path)).map((x: { id: string }) => x.id),
      [q2.id],
    );
  });

  it("changes the policy by interaction_policy and by edits; counts follow deletes", async () => {
    const st = await post(alice, { status: "policy" });
    const path = `/api/v1/statuses/${st.id}/interaction_policy`;
    assert.equal((await req(bob, "PUT", path, { quote_approval_policy: "nobody" })).status, 403);
    assert.equal((await req(alice, "PUT", path, { quote_approval_policy: "all" })).status, 422);
    const changed = await ok(alice, "PUT", path, { quote_approval_policy: "nobody" });
    assert.deepEqual(changed.quote_approval, { automatic: [], manual: [], current_user: "automatic" });
    assert.equal(changed.edited_at, null, "no new version");
    assert.equal((await get(bob, st.id)).quote_approval.current_user, "denied");
    const edited = await ok(alice, "PUT", `/api/v1/statuses/${st.id}`, {
      status: "policy",
      quote_approval_policy: "followers",
    });
    assert.deepEqual(edited.quote_approval.automatic, ["followers"]);

    const quoting = await post(bob, { status: "count me", quoted_status_id: st.id });
    assert.equal((await get(alice, st.id)).quotes_count, 1);
    const history = await ok(bob, "GET", `/api/v1/statuses/${quoting.id}/history`);
    assert.deepEqual(history[0].quote, { state: "accepted", quoted_status_id: st.id });
    const deleted = await ok(bob, "DELETE", `/api/v1/statuses/${quoting.id}`);
    assert.equal(deleted.quote.quoted_status.id, st.id, "the deleted post still shows its quote, for a redraft");
    assert.equal((await get(alice, st.id)).quotes_count, 0);

    const quoting2 = await post(bob, { status: "orphan", quoted_status_id: st.id });
    await ok(alice, "DELETE", `/api/v1/statuses/${st.id}`);
    assert.deepEqual((await get(bob, quoting2.id)).quote, { state: "deleted", quoted_status: null });
  });

  it("keeps the default policy in source[quote_policy]", async () => {
    const me = await ok(carol, "PATCH", "/api/v1/accounts/update_credentials", {
      source: { quote_policy: "followers" },
    });
    assert.equal(me.source.quote_policy, "followers");
    assert.equal((await ok(carol, "GET", "/api/v1/accounts/verify_credentials")).source.quote_policy, "followers");
    assert.equal((await ok(carol, "GET", "/api/v1/preferences"))["posting:default:quote_policy"], "followers");
    const st = await post(carol, { status: "default policy" });
    assert.deepEqual(st.quote_approval.automatic, ["followers"]);
    const bad = await req(carol, "PATCH", "/api/v1/accounts/update_credentials", { source: { quote_policy: "x" } });
    assert.equal(bad.status, 422);
  });

  it("notifies quote and quoted_update (v1, v2) and takes their push alerts", async () => {
    const original = await post(alice, { status: "notify me" });
    const quoting = await post(bob, { status: "quoted you", quoted_status_id: original.id });
    await s.settle();
    const v1 = await ok(alice, "GET", "/api/v1/notifications?types[]=quote");
    const mine = v1.find((n: { status: { id: string } }) => n.status.id === quoting.id);
    assert.ok(mine, "alice is told of the quote");
    assert.equal(mine.type, "quote");
    assert.equal(mine.account.id, bob.account.id);
    const v2 = await ok(alice, "GET", "/api/v2/notifications?types[]=quote");
    const group = v2.notification_groups.find((g: { status_id: string }) => g.status_id === quoting.id);
    assert.equal(group?.type, "quote");
    assert.match(group.group_key, /^ungrouped-/);

    await ok(alice, "PUT", `/api/v1/statuses/${original.id}`, { status: "notify me, edited" });
    await s.settle();
    const updates = await ok(bob, "GET", "/api/v1/notifications?types[]=quoted_update");
    const update = updates.find((n: { status: { id: string } }) => n.status.id === original.id);
    assert.equal(update?.type, "quoted_update");
    assert.equal(update.account.id, alice.account.id);

    const keys = newSubscriptionKeys();
    const sub = await ok(alice, "POST", "/api/v1/push/subscription", {
      subscription: { endpoint: "http://127.0.0.1:9/push", keys: { p256dh: keys.p256dh, auth: keys.auth } },
      data: { alerts: { quote: true, quoted_update: "true" }, policy: "none" },
    });
    assert.equal(sub.alerts.quote, true);
    assert.equal(sub.alerts.quoted_update, true);
    assert.equal(sub.alerts.mention, false);
  });
});
