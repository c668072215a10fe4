import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("masto.js against polls and scheduled statuses", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(() => s.close());

  it("posts a poll, votes, and reads it back", async () => {
    const a = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const b = createRestAPIClient({ url: s.url, accessToken: bob.token });
    const status = await a.v1.statuses.create({
      status: "tea or coffee?",
      poll: { options: ["tea", "coffee"], expiresIn: 3600, multiple: false },
    });
    assert.ok(status.poll);
    const pollId = status.poll.id;
    const voted = await b.v1.polls.$select(pollId).votes.create({ choices: [1] });
    assert.equal(voted.votesCount, 1);
    assert.deepEqual(voted.ownVotes, [1]);
    const fetched = await b.v1.polls.$select(pollId).fetch();
    assert.equal(fetched.options[1].votesCount, 1);
    await assert.rejects(b.v1.polls.$select(pollId).votes.create({ choices: [0] }), /already voted/);
  });

  it("schedules, lists, moves and cancels", async () => {
    const a = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const at = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await a.v1.statuses.create({ status: "later", scheduledAt: at });
    assert.equal(scheduled.scheduledAt, at);
    assert.equal(scheduled.params.text, "later");
    const list = await a.v1.scheduledStatuses.list();
    assert.deepEqual(
      list.map((x) => x.id),
      [scheduled.id],
    );
    const later = new Date(Date.now() + 7200_000).toISOString();
    const moved = await a.v1.scheduledStatuses.$select(scheduled.id).update({ scheduledAt: later });
    assert.equal(moved.scheduledAt, later);
    await a.v1.scheduledStatuses.$select(scheduled.id).remove();
    assert.deepEqual(await a.v1.scheduledStatuses.list(), []);
  });
});
