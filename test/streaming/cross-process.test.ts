import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createInstance,
  type Env,
  freePort,
  gannetOk,
  getJson,
  type Instance,
  type ServerProcess,
  startServer,
} from "../cli/harness.ts";
import { openSocket, openSse, type SseClient, type WsClient } from "../helpers/streaming.ts";

/**
 * Gannet as separate processes sharing one database (and Redis): an API process with the job
 * workers and the scheduler, and a `streaming` process serving only the streaming API. What the
 * first produces reaches the second's clients through the event bus: Redis pub/sub when
 * REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY. SQLite has no cross-process bus.
 */
const buses: { name: string; redis: boolean }[] = [];
if (process.env.DATABASE_URL) buses.push({ name: "PostgreSQL LISTEN/NOTIFY (no REDIS_URL)", redis: false });
if (process.env.DATABASE_URL && process.env.REDIS_URL) buses.push({ name: "Redis pub/sub", redis: true });

if (buses.length === 0) {
  describe("streaming across processes", () => {
    it("runs with DATABASE_URL (and REDIS_URL)", { skip: "DATABASE_URL is not set" }, () => {});
  });
}

for (const bus of buses) {
  describe(`streaming across processes: ${bus.name}`, () => {
    let inst: Instance;
    let api: ServerProcess;
    let streaming: ServerProcess;
    let token: string;
    const sockets: WsClient[] = [];
    const readers: SseClient[] = [];

    before(async () => {
      inst = await createInstance();
      if (!bus.redis) {
        delete inst.env.REDIS_URL;
        delete inst.env.REDIS_NAMESPACE;
      }
      await gannetOk(inst, "accounts", "create", "alice", "--email", "alice@example.com", "--confirmed", "--approved");
      token = (await gannetOk(inst, "tokens", "create", "alice", "--scopes", "read write")).trim();
      // One instance (one domain, one data directory) on two ports.
      const shared: Env = { ...inst.env, LOCAL_DOMAIN: `localhost:${inst.port}` };
      api = await startServer({ env: { ...shared, GANNET_ROLE: "web,worker,scheduler" }, cwd: inst.dir });
      const port = await freePort();
      streaming = await startServer({
        env: { ...shared, PORT: String(port), GANNET_ROLE: "streaming" },
        cwd: inst.dir,
      });
    });
    after(async () => {
      for (const c of sockets) await c.close();
      for (const c of readers) c.close();
      await streaming?.stop();
      await api?.stop();
      await inst.cleanup();
    });

    it("runs a streaming-only process: the streaming API answers, the rest is not served", async () => {
      assert.match(streaming.output(), new RegExp(`roles streaming, event bus ${bus.redis ? "redis" : "postgres"},`));
      // `web` serves the streaming API too, so web, worker and scheduler are every role.
      assert.match(api.output(), /, all roles, event bus /);
      assert.deepEqual(await getJson(`${streaming.url}/api/v1/streaming/health`), { status: 200, body: "OK" });
      assert.equal((await getJson(`${streaming.url}/api/v1/instance`)).status, 404);
      assert.equal((await getJson(`${api.url}/api/v1/instance`)).status, 200);
    });

    it("a post made through one process reaches WebSocket and SSE clients of the other, and of both", async () => {
      const ws = await openSocket(streaming.url, { token, query: { stream: "public:local" } });
      sockets.push(ws);
      ws.send({ type: "subscribe", stream: "user" });
      // An answer to a later message means the subscriptions before it are ready.
      ws.send({ type: "subscribe", stream: "nonsense" });
      await ws.inbox.next((m) => m.error !== undefined, "the subscriptions");
      const sse = await openSse(streaming.url, "/api/v1/streaming/public/local", token);
      readers.push(sse);
      assert.equal(sse.status, 200, sse.body);
      // A client of the producing process too.
      const local = await openSocket(api.url, { token, query: { stream: "public:local" } });
      sockets.push(local);
      local.send({ type: "subscribe", stream: "nonsense" });
      await local.inbox.next((m) => m.error !== undefined, "the subscription");

      const res = await fetch(`${api.url}/api/v1/statuses`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ status: "across processes", visibility: "public" }),
      });
      assert.equal(res.status, 200);
      const { id } = (await res.json()) as { id: string };
      const has = (p: string | undefined) => p?.includes(`"id":"${id}"`) === true;
      const remote = await ws.event("update", (p, m) => has(p) && m.stream?.[0] === "public:local", "public:local");
      assert.equal(JSON.parse(remote.payload as string).content, "<p>across processes</p>");
      // The home timeline's fan-out runs in the API process's workers; the user stream gets it here.
      await ws.event("update", (p, m) => has(p) && m.stream?.[0] === "user", "the user stream's update");
      await sse.event("update", (d) => d.includes(`"id":"${id}"`));
      await local.event("update", has);

      const del = await fetch(`${api.url}/api/v1/statuses/${id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(del.status, 200);
      assert.equal((await ws.event("delete", (p) => p === id)).payload, id);
    });

    it("an announcement made with the gannet command (a third process) reaches the streaming process's user stream", async () => {
      const ws = await openSocket(streaming.url, { token, query: { stream: "user" } });
      sockets.push(ws);
      ws.send({ type: "subscribe", stream: "nonsense" });
      await ws.inbox.next((m) => m.error !== undefined, "the subscription");
      const id = (await gannetOk(inst, "announcements", "create", "--text", "Hello from the command line")).trim();
      const m = await ws.event("announcement", (p) => p?.includes(`"id":"${id}"`) === true);
      assert.equal(JSON.parse(m.payload as string).content, "<p>Hello from the command line</p>");
      await gannetOk(inst, "announcements", "delete", id);
      assert.equal((await ws.event("announcement.delete", (p) => p === id)).payload, id);
    });
  });
}
