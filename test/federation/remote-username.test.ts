import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("federation: remote usernames as Mastodon accepts them", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let alice: TestUser;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  const resolve = (actor: FakeActor) =>
    s.request(`/api/v2/search?q=${encodeURIComponent(actor.id)}&resolve=true&type=accounts`, { token: alice.token });

  it("stores letters, digits, `_`, `.` and `-` (dots and dashes inside)", async () => {
    for (const name of ["plain", "Mixed_Case9", "dotted.name", "dashed-name", "a..b--c", "_under_"]) {
      const actor = await remote.addActor(`ok${name.replace(/\W/g, "")}`, { preferredUsername: name });
      const r = await resolve(actor);
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.accounts.map((a: { acct: string }) => a.acct),
        [`${name}@${remote.domain}`],
        name,
      );
    }
  });

  it("refuses an actor whose preferredUsername has full-width or other non-ASCII letters, or misplaced dots", async () => {
    const bad = [
      "ａｌｉｃｅ",
      "ålice",
      "alice\u0301",
      "аlice",
      "al ice",
      ".alice",
      "alice.",
      "-alice",
      "alice@x",
      "",
      "x".repeat(101),
    ];
    for (const [i, name] of bad.entries()) {
      const actor = await remote.addActor(`bad${i}`, { preferredUsername: name });
      const r = await resolve(actor);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.accounts, [], JSON.stringify(name));
      assert.equal(await s.ctx.repos.accounts.getByUri(actor.id), undefined, JSON.stringify(name));
    }
  });

  it("a post delivered by such an actor is not stored, nor its author", async () => {
    const actor = await remote.addActor("fullwidth", { preferredUsername: "ａｌｉｃｅ" });
    const note = remote.note(actor, "1", { content: "<p>who am I</p>" });
    const res = await remote.send(`${s.url}/inbox`, remote.create(actor, note));
    assert.ok(res.status < 500, `${res.status}`);
    await s.settle({ allowDead: true });
    assert.equal(await s.ctx.repos.accounts.getByUri(actor.id), undefined);
    assert.equal(await s.ctx.repos.statuses.getByUri(note.id), undefined);
    const lookup = await s.request(`/api/v1/accounts/lookup?acct=${encodeURIComponent(`ａｌｉｃｅ@${remote.domain}`)}`);
    assert.equal(lookup.status, 404);
  });
});
