import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import { createGuardedFetch } from "../../src/lib/net/guarded-fetch.ts";
import { type FakeActor, startFakeActor } from "../helpers/fake-actor.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * A canary on a loopback address ALLOWED_PRIVATE_ADDRESSES does not list (127.0.0.2, while
 * 127.0.0.1 is listed for the fake remote): whatever Fedify does for Gannet, it must see nothing.
 */
async function startCanary(): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "application/jrd+json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  return { server, port: (server.address() as { port: number }).port, seen };
}

describe("Fedify's fetches and deliveries obey ALLOWED_PRIVATE_ADDRESSES", () => {
  let s: TestServer;
  let remote: FakeActor;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  let alice: TestUser;

  before(async () => {
    canary = await startCanary();
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    // The real policy, not the test harness's loopback-only stand-in: every address here is loopback.
    s.ctx.guardedFetch = createGuardedFetch(s.ctx.config);
    remote = await startFakeActor();
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s.close();
    await remote.close();
    await new Promise<void>((resolve) => canary.server.close(() => resolve()));
  });

  const addFollower = async (username: string, uri: string, inbox: string, sharedInbox: string | null) => {
    const now = new Date().toISOString();
    const id = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id,
      username,
      domain: new URL(uri).host,
      uri,
      inbox_url: inbox,
      shared_inbox_url: sharedInbox,
      created_at: now,
      updated_at: now,
    });
    await s.ctx.repos.follows.insert({
      id: s.ctx.ids.next(),
      account_id: id,
      target_account_id: alice.account.id,
      created_at: now,
    });
  };

  it("delivers to the listed address and never to an unlisted one, in any spelling", async () => {
    const c = `127.0.0.2:${canary.port}`;
    await addFollower("remote", remote.actorId, remote.inbox, null);
    // A shared inbox on the unlisted address, and the same address as one decimal number.
    await addFollower("mallory", `http://${c}/users/mallory`, `http://${c}/users/mallory/inbox`, `http://${c}/inbox`);
    await addFollower(
      "eve",
      `http://2130706434:${canary.port}/users/eve`,
      `http://2130706434:${canary.port}/users/eve/inbox`,
      null,
    );
    const r = await s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "hi all" } });
    assert.equal(r.status, 200);
    await s.settle({ allowDead: true });
    assert.equal(remote.received.length, 1, "the listed peer gets the post");
    assert.deepEqual(canary.seen, []);
    // Refused for good at once, not retried against the address ten times.
    const failing = (await s.ctx.queue.state()).failing;
    const refused = failing.filter((j) => j.name === "federation.outbox");
    assert.equal(refused.length, 2, JSON.stringify(failing));
    for (const j of refused) {
      assert.equal(j.state, "dead");
      assert.equal(j.attempts, 1);
    }
  });

  it("fetches no document and asks no WebFinger of an unlisted address", async () => {
    canary.seen.length = 0;
    const c = `127.0.0.2:${canary.port}`;
    for (const q of [`http://${c}/users/bob`, `http://localhost.:${canary.port}/x`, `bob@${c}`]) {
      const r = await s.request(`/api/v2/search?q=${encodeURIComponent(q)}&resolve=true`, { token: alice.token });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.accounts, []);
      assert.deepEqual(r.body.statuses, []);
    }
    await s.settle({ allowDead: true });
    assert.deepEqual(canary.seen, []);
  });
});
