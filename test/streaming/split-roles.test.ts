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
import { openSocket, type WsClient } from "../helpers/streaming.ts";

/**
 * Gannet split over five processes sharing one database (and Redis when REDIS_URL is set), as
 * docs/scaling.md describes and `npm run bench -- --postgres --split` measures: two `web`
 * processes, a `worker`, a `streaming` and a `scheduler`. A post made through one web process
 * is fanned out by the worker and reaches its author's follower on the other web process and on
 * the streaming process. SQLite has no cross-process event bus, so the split needs PostgreSQL.
 */
const pg = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== "";
const skip = pg ? false : "the split needs DATABASE_URL (SQLite has no cross-process event bus)";

describe("split roles: two web processes, a worker, a streaming and a scheduler", { skip }, () => {
  let inst: Instance;
  const procs: ServerProcess[] = [];
  let webA: ServerProcess;
  let webB: ServerProcess;
  let streaming: ServerProcess;
  let authorToken: string;
  let followerToken: string;
  const sockets: WsClient[] = [];

  before(async () => {
    inst = await createInstance();
    // The first command migrates the database; the rest, and the five processes, start at once.
    await gannetOk(inst, "accounts", "create", "alice", "--email", "alice@example.com", "--confirmed", "--approved");
    const shared: Env = { ...inst.env, LOCAL_DOMAIN: `localhost:${inst.port}` };
    const start = async (role: string, port?: number) => {
      const p = await startServer({
        env: { ...shared, GANNET_ROLE: role, ...(port ? { PORT: String(port) } : {}) },
        cwd: inst.dir,
        // Five processes start at once on a CI runner's two cores.
        limitMs: 90_000,
      });
      procs.push(p);
      return p;
    };
    const tokens = async () => {
      const bob = gannetOk(
        inst,
        "accounts",
        "create",
        "bob",
        "--email",
        "bob@example.com",
        "--confirmed",
        "--approved",
      );
      const alice = gannetOk(inst, "tokens", "create", "alice", "--scopes", "read write");
      await bob;
      return [await alice, await gannetOk(inst, "tokens", "create", "bob", "--scopes", "read write follow")];
    };
    const [b, s] = await Promise.all([freePort(), freePort()]);
    const started = await Promise.all([
      start("web"),
      start("web", b),
      start("streaming", s),
      start("worker"),
      start("scheduler"),
      tokens(),
    ]);
    [webA, webB, streaming] = started as ServerProcess[];
    [authorToken, followerToken] = (started[5] as string[]).map((t) => t.trim());
  });
  after(async () => {
    for (const c of sockets) await c.close();
    await Promise.all(procs.map((p) => p.stop()));
    await inst?.cleanup();
  });

  const api = async (base: string, method: string, path: string, token: string, json?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const body = await res.text();
    assert.equal(res.status, 200, `${method} ${path}: ${body}`);
    return JSON.parse(body);
  };

  /** The follower's user stream on `base`, ready once an answer to a later message came back. */
  const userStream = async (base: string) => {
    const ws = await openSocket(base, { token: followerToken, query: { stream: "user" } });
    sockets.push(ws);
    ws.send({ type: "subscribe", stream: "nonsense" });
    await ws.inbox.next((m) => m.error !== undefined, "the subscription");
    return ws;
  };

  it("a post made through web A reaches the follower's streams on web B and on the streaming process, and web B's home timeline", async () => {
    // `web` serves the streaming API too.
    const web = "roles web, streaming";
    const roles = procs.map((p) => /(?:, |\()(roles [a-z, ]+?|all roles), event bus /.exec(p.output())?.[1]).sort();
    assert.deepEqual(roles, ["roles scheduler", "roles streaming", web, web, "roles worker"]);
    const alice = await api(webA.url, "GET", "/api/v1/accounts/verify_credentials", authorToken);
    // The follow goes through web B, the post through web A.
    assert.equal((await api(webB.url, "POST", `/api/v1/accounts/${alice.id}/follow`, followerToken)).following, true);
    const [onB, onStreaming] = await Promise.all([userStream(webB.url), userStream(streaming.url)]);

    const post = await api(webA.url, "POST", "/api/v1/statuses", authorToken, {
      status: "across the split",
      visibility: "public",
    });
    const has = (p: string | undefined) => p?.includes(`"id":"${post.id}"`) === true;
    for (const ws of [onB, onStreaming]) {
      const m = await ws.event("update", has, "the home fan-out's update");
      assert.equal(JSON.parse(m.payload as string).content, "<p>across the split</p>");
    }
    const home = await getJson(`${webB.url}/api/v1/timelines/home`, followerToken);
    assert.equal(home.status, 200);
    assert.ok(
      home.body.some((st: { id: string }) => st.id === post.id),
      "web B's home timeline holds the post",
    );

    // A mention: the notification reaches the follower's user stream on both.
    const mention = await api(webA.url, "POST", "/api/v1/statuses", authorToken, { status: "hello @bob" });
    for (const ws of [onB, onStreaming]) {
      const m = await ws.event(
        "notification",
        (p) => p !== undefined && JSON.parse(p).status?.id === mention.id,
        "the mention's notification",
      );
      assert.equal(JSON.parse(m.payload as string).type, "mention");
    }
  });
});
