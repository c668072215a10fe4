import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("polls", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;

  const post = (u: TestUser, json: Record<string, unknown>) =>
    s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
  const postPoll = async (u: TestUser, poll: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = await post(u, { status: "question?", poll: { expires_in: 3600, ...poll }, ...extra });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const voteFor = (u: TestUser | undefined, pollId: string, choices: unknown) =>
    s.request(`/api/v1/polls/${pollId}/votes`, { method: "POST", token: u?.token, json: { choices } });
  const getPoll = (u: TestUser | undefined, pollId: string) =>
    s.request(`/api/v1/polls/${pollId}`, { token: u?.token });
  const count = async (table: "polls" | "poll_votes" | "statuses") =>
    Number(
      (
        await s.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Ends a poll now, as if its time had come. */
  const endPoll = (pollId: string) =>
    s.ctx.db
      .updateTable("polls")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", pollId)
      .execute();
  /** Waits until no job of these names is waiting, delayed-and-due or running, and none died. */
  const settled = (names: string[]) => s.settle({ names, delayed: false });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    dave = await s.createUser("dave");
  });
  after(() => s.close());

  it("posts a poll and renders the Poll entity in the status", async () => {
    const before = Date.now();
    const st = await postPoll(alice, { options: [" yes ", "no", ""], expires_in: 600 });
    const p = st.poll;
    assert.deepEqual(Object.keys(p), [
      "id",
      "expires_at",
      "expired",
      "multiple",
      "votes_count",
      "voters_count",
      "voted",
      "own_votes",
      "options",
      "emojis",
    ]);
    assert.match(p.id, /^\d+$/);
    assert.equal(p.expired, false);
    assert.equal(p.multiple, false);
    assert.equal(p.votes_count, 0);
    assert.equal(p.voters_count, 0);
    assert.equal(p.voted, true, "the author counts as having voted");
    assert.deepEqual(p.own_votes, []);
    assert.deepEqual(p.options, [
      { title: "yes", votes_count: 0 },
      { title: "no", votes_count: 0 },
    ]);
    assert.deepEqual(p.emojis, []);
    const expires = Date.parse(p.expires_at);
    assert.ok(expires >= before + 600_000 && expires <= Date.now() + 600_000);

    // Anonymous readers get no voted/own_votes.
    const anon = await s.request(`/api/v1/statuses/${st.id}`);
    assert.equal(anon.body.poll.id, p.id);
    assert.equal("voted" in anon.body.poll, false);
    assert.equal("own_votes" in anon.body.poll, false);
    const got = await getPoll(undefined, p.id);
    assert.equal(got.status, 200);
    assert.deepEqual(Object.keys(got.body), [
      "id",
      "expires_at",
      "expired",
      "multiple",
      "votes_count",
      "voters_count",
      "options",
      "emojis",
    ]);
    const asBob = await getPoll(bob, p.id);
    assert.equal(asBob.body.voted, false);
    assert.deepEqual(asBob.body.own_votes, []);
    // Timelines carry it too.
    const tl = await s.request("/api/v1/timelines/public");
    assert.equal(tl.body.find((x: { id: string }) => x.id === st.id).poll.id, p.id);
  });

  it("accepts form and multipart bodies", async () => {
    const form = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      form: {
        status: "form poll",
        "poll[options][]": ["a", "b", "c"],
        "poll[expires_in]": "300",
        "poll[multiple]": "true",
        "poll[hide_totals]": "1",
      },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.equal(form.body.poll.multiple, true);
    assert.deepEqual(
      form.body.poll.options.map((o: { title: string }) => o.title),
      ["a", "b", "c"],
    );
    assert.deepEqual(
      form.body.poll.options.map((o: { votes_count: unknown }) => o.votes_count),
      [null, null, null],
    );
    const fd = new FormData();
    fd.append("status", "multipart poll");
    fd.append("poll[options][]", "x");
    fd.append("poll[options][]", "y");
    fd.append("poll[expires_in]", "86400");
    const multi = await s.request("/api/v1/statuses", { method: "POST", token: alice.token, multipart: fd });
    assert.equal(multi.status, 200, JSON.stringify(multi.body));
    assert.equal(multi.body.poll.multiple, false);
    assert.equal(multi.body.poll.options.length, 2);
  });

  it("rejects bad polls with Mastodon's messages and stores nothing", async () => {
    const media = await s.request("/api/v1/media", { method: "POST", token: alice.token, json: { file: PNG } });
    assert.equal(media.status, 200);
    const before = [await count("statuses"), await count("polls")];
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { poll: { options: ["a"], expires_in: 600 } },
        422,
        "Validation failed: Poll options must have more than one item",
      ],
      [
        { poll: { options: [], expires_in: 600 } },
        422,
        "Validation failed: Poll options can't be blank, Poll options must have more than one item",
      ],
      [
        { poll: { options: ["a", "b", "c", "d", "e"], expires_in: 600 } },
        422,
        "Validation failed: Poll options can't contain more than 4 items",
      ],
      [
        { poll: { options: ["a", "x".repeat(51)], expires_in: 600 } },
        422,
        "Validation failed: Poll options cannot be longer than 50 characters each",
      ],
      [
        { poll: { options: ["a", "a"], expires_in: 600 } },
        422,
        "Validation failed: Poll options contain duplicate items",
      ],
      [{ poll: { options: ["a", "b"], expires_in: 299 } }, 422, "Validation failed: Poll expires at is too soon"],
      [
        { poll: { options: ["a", "b"], expires_in: 2_629_747 } },
        422,
        "Validation failed: Poll expires at is too far into the future",
      ],
      [
        { poll: { options: ["a", "b"] } },
        422,
        "Validation failed: Poll expires at can't be blank, Poll expires at is too far into the future",
      ],
      [
        { poll: { options: ["a", "b"], expires_in: 600 }, media_ids: [media.body.id] },
        422,
        "Cannot attach more than 4 files",
      ],
      [{ poll: { options: [{ a: 1 }, "b"], expires_in: 600 } }, 422, "Validation failed: Poll options is invalid"],
    ];
    for (const [json, status, error] of cases) {
      const r = await post(alice, { status: "q", ...json });
      assert.equal(r.status, status, JSON.stringify(json));
      assert.equal(r.body.error, error, JSON.stringify(json));
    }
    // Graphemes, not code units: 50 emoji fit.
    const emoji = await post(alice, { status: "q", poll: { options: ["👍🏽".repeat(50), "b"], expires_in: 600 } });
    assert.equal(emoji.status, 200, JSON.stringify(emoji.body));
    assert.deepEqual([await count("statuses"), await count("polls")], [before[0] + 1, before[1] + 1]);
    // An empty poll object means no poll.
    const empty = await post(alice, { status: "no poll", poll: {} });
    assert.equal(empty.status, 200);
    assert.equal(empty.body.poll, null);
  });

  it("votes: counts, own votes, and every refusal stores nothing", async () => {
    const st = await postPoll(alice, { options: ["a", "b", "c"] });
    const id = st.poll.id;
    const r = await voteFor(bob, id, ["1"]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.voted, true);
    assert.deepEqual(r.body.own_votes, [1]);
    assert.equal(r.body.votes_count, 1);
    assert.equal(r.body.voters_count, 1);
    assert.deepEqual(
      r.body.options.map((o: { votes_count: number }) => o.votes_count),
      [0, 1, 0],
    );
    const votes = await count("poll_votes");
    const refusals: [TestUser | undefined, unknown, number, string][] = [
      [bob, [0], 422, "Validation failed: You have already voted on this poll"],
      [carol, [0, 1], 422, "Validation failed: You have already voted on this poll"],
      [carol, [3], 422, "Validation failed: The chosen vote option does not exist"],
      [carol, ["-1"], 422, "Validation failed: The chosen vote option does not exist"],
      [carol, ["abc"], 422, "Validation failed: The chosen vote option does not exist"],
      [alice, [0], 422, "Validation failed: You cannot vote in your own polls"],
      [carol, [], 400, "param is missing or the value is empty: choices"],
      [carol, undefined, 400, "param is missing or the value is empty: choices"],
    ];
    for (const [u, choices, status, error] of refusals) {
      const res = await voteFor(u, id, choices);
      assert.equal(res.status, status, JSON.stringify(choices));
      assert.equal(res.body.error, error, JSON.stringify(choices));
    }
    assert.equal(await count("poll_votes"), votes);
    // Form body.
    const form = await s.request(`/api/v1/polls/${id}/votes`, {
      method: "POST",
      token: carol.token,
      form: { "choices[]": "2" },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.equal(form.body.votes_count, 2);
    assert.equal(form.body.voters_count, 2);
    // The author sees the counts in the status.
    const seen = await s.request(`/api/v1/statuses/${st.id}`, { token: alice.token });
    assert.deepEqual(
      seen.body.poll.options.map((o: { votes_count: number }) => o.votes_count),
      [0, 1, 1],
    );
    assert.deepEqual(seen.body.poll.own_votes, []);
    // Ended polls take no votes.
    await endPoll(id);
    const late = await voteFor(dave, id, [0]);
    assert.equal(late.status, 422);
    assert.equal(late.body.error, "Validation failed: The poll has already ended");
    assert.equal((await getPoll(dave, id)).body.expired, true);
  });

  it("multiple-choice polls count votes and voters apart", async () => {
    const st = await postPoll(alice, { options: ["a", "b", "c"], multiple: true });
    const r = await voteFor(bob, st.poll.id, [0, 2]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.votes_count, 2);
    assert.equal(r.body.voters_count, 1);
    assert.deepEqual(r.body.own_votes, [0, 2]);
    const again = await voteFor(bob, st.poll.id, [2]);
    assert.equal(again.status, 422);
    assert.equal(again.body.error, "Validation failed: You have already voted on this poll");
    const dup = await voteFor(carol, st.poll.id, [1, 1]);
    assert.equal(dup.status, 422);
    assert.equal((await voteFor(carol, st.poll.id, [1])).body.voters_count, 2);
  });

  it("hide_totals hides per-option counts until the end, from everyone", async () => {
    const st = await postPoll(alice, { options: ["a", "b"], hide_totals: true });
    const r = await voteFor(bob, st.poll.id, [0]);
    assert.deepEqual(
      r.body.options.map((o: { votes_count: unknown }) => o.votes_count),
      [null, null],
    );
    assert.equal(r.body.votes_count, 1);
    const author = await getPoll(alice, st.poll.id);
    assert.deepEqual(
      author.body.options.map((o: { votes_count: unknown }) => o.votes_count),
      [null, null],
    );
    await endPoll(st.poll.id);
    const ended = await getPoll(undefined, st.poll.id);
    assert.deepEqual(
      ended.body.options.map((o: { votes_count: unknown }) => o.votes_count),
      [1, 0],
    );
  });

  it("a poll is as visible as its status; scopes are checked", async () => {
    const st = await postPoll(alice, { options: ["a", "b"] }, { visibility: "private" });
    const id = st.poll.id;
    assert.equal((await getPoll(undefined, id)).status, 404);
    assert.equal((await getPoll(bob, id)).status, 404);
    assert.equal((await voteFor(bob, id, [0])).status, 404);
    await s.follow(bob, alice);
    assert.equal((await getPoll(bob, id)).status, 200);
    assert.equal((await voteFor(bob, id, [0])).status, 200);
    assert.equal((await getPoll(bob, "123456789")).status, 404);
    assert.equal((await s.request("/api/v1/polls/abc", { token: bob.token })).status, 404);
    // Scopes: no token, a read-only token, an app token.
    const pub = (await postPoll(alice, { options: ["a", "b"] })).poll.id;
    assert.equal((await voteFor(undefined, pub, [0])).status, 401);
    const reader = await s.createUser("reader", { scopes: "read" });
    assert.equal((await voteFor(reader, pub, [0])).status, 403);
    assert.equal((await getPoll(reader, pub)).status, 200);
    const writer = await s.createUser("writer", { scopes: "write:statuses" });
    assert.equal((await voteFor(writer, pub, [0])).status, 200);
    const app = await s.appToken("read write");
    const appVote = await s.request(`/api/v1/polls/${pub}/votes`, {
      method: "POST",
      token: app,
      json: { choices: [0] },
    });
    assert.equal(appVote.status, 422);
  });

  it("notifies the author and every voter when the poll ends, once", async () => {
    const st = await postPoll(alice, { options: ["a", "b"] });
    const id = st.poll.id;
    await voteFor(bob, id, [0]);
    await voteFor(carol, id, [1]);
    // The end is queued at the closing time.
    const queued = await s.ctx.queue.state();
    assert.ok(queued.counts.some((c) => c.name === "polls.expire" && c.state === "delayed" && c.count > 0));
    await endPoll(id);
    await s.ctx.queue.enqueue("polls.expire", { pollId: id });
    await s.ctx.queue.enqueue("polls.expire", { pollId: id });
    await settled(["polls.expire", "notifications.create"]);
    const pollNotes = async (u: TestUser) =>
      ((await s.request("/api/v1/notifications?types[]=poll", { token: u.token })).body as any[]).filter(
        (n) => n.status?.id === st.id,
      );
    for (const u of [alice, bob, carol]) {
      const got = await pollNotes(u);
      assert.equal(got.length, 1, u.account.username);
      assert.equal(got[0].type, "poll");
      assert.equal(got[0].account.id, alice.account.id);
      assert.equal(got[0].status.poll.expired, true);
    }
    assert.equal((await pollNotes(dave)).length, 0);
  });

  it("a poll not yet over is not notified", async () => {
    const st = await postPoll(alice, { options: ["a", "b"] });
    await voteFor(bob, st.poll.id, [0]);
    await s.ctx.queue.enqueue("polls.expire", { pollId: st.poll.id });
    await settled(["polls.expire", "notifications.create"]);
    const got = (await s.request("/api/v1/notifications?types[]=poll", { token: bob.token })).body as any[];
    assert.equal(got.filter((n) => n.status?.id === st.id).length, 0);
  });

  it("edits: same options keep the votes, changed options reset them, no poll removes it", async () => {
    const st = await postPoll(alice, { options: ["a", "b"] });
    const id = st.poll.id;
    await voteFor(bob, id, [1]);
    const edit = (json: Record<string, unknown>) =>
      s.request(`/api/v1/statuses/${st.id}`, {
        method: "PUT",
        token: alice.token,
        json: { status: "edited", ...json },
      });
    const same = await edit({ poll: { options: ["a", "b"], expires_in: 7200 } });
    assert.equal(same.status, 200, JSON.stringify(same.body));
    assert.equal(same.body.poll.id, id);
    assert.equal(same.body.poll.votes_count, 1);
    assert.ok(Date.parse(same.body.poll.expires_at) > Date.now() + 7000_000);
    const bad = await edit({ poll: { options: ["a"], expires_in: 7200 } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error, "Validation failed: Poll options must have more than one item");
    const changed = await edit({ poll: { options: ["a", "b", "c"], expires_in: 7200 } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.poll.votes_count, 0);
    assert.equal(changed.body.poll.voters_count, 0);
    assert.deepEqual((await getPoll(bob, id)).body.own_votes, []);
    assert.equal((await voteFor(bob, id, [2])).status, 200, "may vote again");
    const history = await s.request(`/api/v1/statuses/${st.id}/history`, { token: alice.token });
    assert.deepEqual(
      history.body.map((v: { poll?: { options: { title: string }[] } }) => v.poll?.options.map((o) => o.title)),
      [
        ["a", "b"],
        ["a", "b"],
        ["a", "b", "c"],
      ],
    );
    const removed = await edit({});
    assert.equal(removed.status, 200);
    assert.equal(removed.body.poll, null);
    assert.equal((await getPoll(bob, id)).status, 404);
    // A poll can be added by an edit.
    const plain = (await post(alice, { status: "plain" })).body;
    const added = await s.request(`/api/v1/statuses/${plain.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "now a poll", poll: { options: ["x", "y"], expires_in: 600 } },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal(added.body.poll.options.length, 2);
  });

  it("delete answers the poll for redraft, then removes it", async () => {
    const st = await postPoll(alice, { options: ["a", "b"] });
    await voteFor(bob, st.poll.id, [0]);
    const del = await s.request(`/api/v1/statuses/${st.id}`, { method: "DELETE", token: alice.token });
    assert.equal(del.status, 200);
    assert.equal(del.body.text, "question?");
    assert.equal(del.body.poll.id, st.poll.id);
    assert.deepEqual(
      del.body.poll.options.map((o: { title: string }) => o.title),
      ["a", "b"],
    );
    assert.equal((await getPoll(bob, st.poll.id)).status, 404);
    const left = await s.ctx.db.selectFrom("poll_votes").selectAll().where("poll_id", "=", st.poll.id).execute();
    assert.equal(left.length, 0);
  });
});
