import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import type { KvKey } from "@fedify/fedify";
import { KvRepository } from "../../src/db/repositories/kv.ts";
import { CIRCUIT } from "../../src/federation/delivery-circuit.ts";
import { DatabaseKvStore } from "../../src/infra/kv/fedify-kv.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** A peer on loopback that can be stopped and started again on its port; `/broken` answers 500. */
class Peer {
  readonly posts: string[] = [];
  port = 0;
  #server?: Server;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (req.method !== "POST") return void res.writeHead(404).end();
        if (req.url === "/broken") return void res.writeHead(500).end();
        this.posts.push(req.url ?? "");
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}

describe("delivery circuit: one per inbox, closing again when the peer is back", () => {
  let s: TestServer;
  let alice: TestUser;
  let peer: Peer;
  let kv: DatabaseKvStore;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    alice = await s.createUser("alice");
    peer = new Peer();
    await peer.start();
    kv = new DatabaseKvStore(new KvRepository(s.ctx.db));
  });
  after(async () => {
    await peer.stop();
    await s.close();
  });

  const circuit = (path: string) =>
    kv.get<{ failures: number; openUntil?: number }>(["gannet", "deliveryCircuit", peer.url(path)] as KvKey);

  const addFollower = async (username: string, inboxPath: string) => {
    const now = new Date().toISOString();
    const id = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id,
      username,
      domain: `127.0.0.1:${peer.port}`,
      uri: peer.url(`/users/${username}`),
      inbox_url: peer.url(inboxPath),
      created_at: now,
      updated_at: now,
    });
    await s.ctx.repos.follows.insert({
      id: s.ctx.ids.next(),
      account_id: id,
      target_account_id: alice.account.id,
      created_at: now,
    });
    return id;
  };

  const post = async (n: number, prefix: string) => {
    for (let i = 0; i < n; i++) {
      const r = await s.request("/api/v1/statuses", {
        method: "POST",
        token: alice.token,
        json: { status: `${prefix} ${i}` },
      });
      assert.equal(r.status, 200);
    }
  };

  it("a failing path on a server holds only that inbox, not the server's others", async () => {
    await addFollower("bob", "/users/bob/inbox");
    const mallory = await addFollower("mallory", "/broken");
    await post(12, "first");
    await waitFor("bob's 12 posts", () => peer.posts.length >= 12, 15_000);
    await waitFor(
      "the failing inbox's circuit to open",
      async () => (await circuit("/broken"))?.openUntil !== undefined,
      15_000,
    );
    // Once the failing inbox is held, bob still gets new posts at once.
    await post(3, "more");
    await waitFor("bob's 3 more posts", () => peer.posts.length >= 15, 10_000);
    assert.equal(await circuit("/users/bob/inbox"), undefined);
    assert.ok(peer.posts.every((p) => p === "/users/bob/inbox"));
    // Mallory leaves; her held deliveries wait for their circuit (settled past in the next test).
    await s.ctx.db.deleteFrom("follows").where("account_id", "=", mallory).execute();
    peer.posts.length = 0;
  });

  it("opens after an outage, holds without re-queueing every second, and delivers within a minute of the return", async () => {
    await peer.stop();
    await post(12, "during the outage");
    await waitFor(
      "bob's circuit to open",
      async () => (await circuit("/users/bob/inbox"))?.openUntil !== undefined,
      15_000,
    );
    // Held: count what is queued again while the circuit is open.
    let queued = 0;
    const enqueueMany = s.ctx.queue.enqueueMany.bind(s.ctx.queue);
    const bobs = peer.url("/users/bob/inbox");
    s.ctx.queue.enqueueMany = (jobs) => {
      for (const j of jobs) {
        const p = j.payload as { inbox?: string; gannetHeldSince?: number } | undefined;
        if (j.name === "federation.outbox" && p?.inbox === bobs && p.gannetHeldSince !== undefined) queued++;
      }
      return enqueueMany(jobs);
    };
    await sleep(5000);
    // Each of the 12 held deliveries is queued again at most once in those 5 s (Fedify's own
    // circuit re-queued each one every second).
    assert.ok(queued <= 12, `${queued} held deliveries queued again in 5 s`);
    s.ctx.queue.enqueueMany = enqueueMany;

    await peer.start();
    const back = Date.now();
    await waitFor("the 12 posts after the peer's return", () => peer.posts.length >= 12, 60_000);
    const took = Date.now() - back;
    assert.ok(took < 60_000, `${took} ms`);
    // At worst: the rest of the cool-off, then the probe's hold on the deliveries that met it.
    assert.ok(took <= CIRCUIT.coolOffMs + CIRCUIT.probeMs + CIRCUIT.spreadMs + 3000, `${took} ms`);
    await waitFor("the circuit to close", async () => (await circuit("/users/bob/inbox")) === undefined, 5000);
    await s.settle({ delayed: false });
    assert.equal(peer.posts.length, 12, "each post once");
  });
});
