// Where and how the load shedder refuses (LoadShedder.guard): at a request, before anything of the
// application, and at a new connection, before the HTTP parser; /health and WebSocket upgrades
// still get through. The shedder's signal is forced here (its own tests are in overload.test.ts);
// the last suite drives a real server into saturation.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { LoadShedder } from "../../src/http/middleware/overload.ts";
import { blockEveryTurn } from "../helpers/busy-loop.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** Sends `bytes` on a connection of its own and reads to the server's end; the text read, or the error. */
function rawExchange(port: number, bytes: string, opts: { keepOpenMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
    });
    socket.on("end", () => {
      socket.end();
      resolve(text);
    });
    socket.on("error", reject);
    socket.write(bytes);
    if (opts.keepOpenMs !== undefined) setTimeout(() => socket.destroy(), opts.keepOpenMs);
  });
}

/** A plain HTTP server behind a shedder whose signal the test sets; what reached the application. */
async function guardedServer(): Promise<{
  server: Server;
  port: number;
  shedder: LoadShedder;
  setOverloaded: (v: boolean) => void;
  reached: string[];
}> {
  const reached: string[] = [];
  const server = createServer((req, res) => {
    reached.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(req.url === "/health" ? "OK" : "served");
  });
  server.on("upgrade", (req, socket) => {
    reached.push(`upgrade ${req.url}`);
    socket.end("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
  });
  const shedder = new LoadShedder({ enabled: true, lagMs: 100, maxInFlight: 0, retryAfterSeconds: 7 });
  let overloaded = false;
  shedder.overloaded = () => overloaded;
  shedder.guard(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    shedder,
    setOverloaded: (v) => {
      overloaded = v;
    },
    reached,
  };
}

describe("overload: refusals before the application (LoadShedder.guard)", () => {
  let g: Awaited<ReturnType<typeof guardedServer>>;
  before(async () => {
    g = await guardedServer();
  });
  after(() => {
    g.shedder.stop();
    g.server.closeAllConnections();
    g.server.close();
  });

  it("a new connection (Connection: close) accepted while overloaded is answered 503 with Retry-After and closed, readable to the end, unseen by the application", async () => {
    g.setOverloaded(true);
    g.reached.length = 0;
    const answer = await rawExchange(
      g.port,
      "GET /api/v1/timelines/public HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert.match(answer, /^HTTP\/1\.1 503 /);
    assert.match(answer, /\r\nRetry-After: 7\r\n/);
    assert.match(answer, /\r\nConnection: close\r\n/);
    assert.match(answer, /\r\nDate: /);
    const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
    assert.equal(typeof JSON.parse(body).error, "string");
    assert.match(answer, new RegExp(`\\r\\nContent-Length: ${Buffer.byteLength(body)}\\r\\n`));
    assert.deepEqual(g.reached, []);
  });

  it("a request on a kept-alive connection is refused with 503 and Retry-After while overloaded, and served on the same connection after", async () => {
    g.setOverloaded(false);
    g.reached.length = 0;
    const agentless = await fetch(`http://127.0.0.1:${g.port}/first`);
    assert.equal(await agentless.text(), "served");
    // fetch keeps the connection: the next requests come on it, past the connection's check.
    g.setOverloaded(true);
    const refused = await fetch(`http://127.0.0.1:${g.port}/second`, { method: "POST", body: "x".repeat(1000) });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get("retry-after"), "7");
    assert.equal(refused.headers.get("cache-control"), "no-store");
    assert.equal(typeof (await refused.json()).error, "string");
    const health = await fetch(`http://127.0.0.1:${g.port}/health`);
    assert.equal(await health.text(), "OK");
    g.setOverloaded(false);
    const served = await fetch(`http://127.0.0.1:${g.port}/third`);
    assert.equal(await served.text(), "served");
    assert.deepEqual(g.reached, ["/first", "/health", "/third"]);
  });

  it("a new kept-alive connection accepted while overloaded gets its 503 and keeps the connection for the next request", async () => {
    g.setOverloaded(true);
    g.reached.length = 0;
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = connect(g.port, "127.0.0.1");
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString("latin1");
        if (text.startsWith("HTTP/1.1 503") && text.includes("overloaded") && !text.includes("/second")) {
          g.setOverloaded(false);
          text += "/second";
          socket.write("GET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        }
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.write("GET /first HTTP/1.1\r\nHost: x\r\n\r\n");
    });
    assert.match(answers, /^HTTP\/1\.1 503 /);
    assert.match(answers, /\r\nRetry-After: 7\r\n/i);
    assert.match(answers, /HTTP\/1\.1 200 [\s\S]*\r\nserved\r\n/);
    assert.deepEqual(g.reached, ["/second"]);
  });

  it("a connection accepted while overloaded that is reset or closed before its request leaves the server answering", async () => {
    g.setOverloaded(true);
    const before = g.server.listenerCount("connection");
    for (const how of ["reset", "close"] as const) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(g.port, "127.0.0.1");
        socket.on("error", () => {});
        socket.on("connect", () => {
          // The server must have accepted it (and taken it aside) before it goes.
          setTimeout(() => {
            if (how === "reset") socket.resetAndDestroy();
            else socket.end();
            setTimeout(resolve, 50);
          }, 50);
        });
        socket.on("timeout", reject);
      });
    }
    assert.equal(g.server.listenerCount("connection"), before);
    const answer = await rawExchange(g.port, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    assert.match(answer, /^HTTP\/1\.1 200 /);
  });

  it("/health on a new connection is answered OK while overloaded", async () => {
    g.setOverloaded(true);
    const answer = await rawExchange(g.port, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.ok(answer.endsWith("\r\n\r\nOK"), answer);
  });

  it("a WebSocket upgrade on a new connection is handed to the server while overloaded", async () => {
    g.setOverloaded(true);
    g.reached.length = 0;
    const answer = await rawExchange(
      g.port,
      "GET /api/v1/streaming HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
    );
    assert.match(answer, /^HTTP\/1\.1 101 /);
    assert.deepEqual(g.reached, ["upgrade /api/v1/streaming"]);
  });

  it("a connection accepted while overloaded whose request comes once the overload is over is served, its first bytes intact", async () => {
    g.setOverloaded(true);
    g.reached.length = 0;
    const answer = new Promise<string>((resolve, reject) => {
      const socket = connect(g.port, "127.0.0.1");
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString("latin1");
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.on("connect", () => {
        // Accepted (and checked) while overloaded; the request comes after the overload.
        setTimeout(() => {
          g.setOverloaded(false);
          socket.write("GET /late?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        }, 100);
      });
    });
    assert.match(await answer, /^HTTP\/1\.1 200 /);
    assert.deepEqual(g.reached, ["/late?x=1"]);
  });

  it("a request head split across packets on a new connection is handed to the server", async () => {
    g.setOverloaded(true);
    g.reached.length = 0;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(g.port, "127.0.0.1");
      socket.setNoDelay(true);
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString("latin1");
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.write("GET /split HTTP/1.1\r\n");
      setTimeout(() => {
        g.setOverloaded(false);
        socket.write("Host: x\r\nConnection: close\r\n\r\n");
      }, 100);
    });
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.deepEqual(g.reached, ["/split"]);
  });
});

describe("overload: a saturated server refuses what waited past the budget, at once, and keeps answering", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ LOAD_SHEDDING: "on", LOAD_SHEDDING_LAG_MS: "20", LOAD_SHEDDING_RETRY_AFTER: "5" });
  });
  after(() => s.close());

  it("new connections and requests that waited past LOAD_SHEDDING_LAG_MS behind a saturated loop get 503 with Retry-After, before authentication; /health is answered", async () => {
    const port = Number(new URL(s.url).port);
    const unblock = blockEveryTurn(60);
    try {
      // Saturate the loop's average (about 1.2 s at 100% busy), then send a burst: every turn
      // holds the loop 60 ms, past the 20 ms budget, so what a turn reads after that is refused.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const request =
        "GET /api/v1/accounts/verify_credentials HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\nConnection: close\r\n\r\n";
      const answers = await Promise.all(Array.from({ length: 20 }, () => rawExchange(port, request)));
      const statuses = answers.map((a) => Number(a.slice(9, 12)));
      // A bad token would be 401: the refusals came before authentication.
      assert.ok(statuses.includes(503), `statuses ${statuses}`);
      for (const a of answers.filter((x) => x.startsWith("HTTP/1.1 503"))) assert.match(a, /\r\nRetry-After: 5\r\n/i);
      assert.deepEqual(
        statuses.filter((st) => st !== 503 && st !== 401),
        [],
      );
      const health = await rawExchange(port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      assert.match(health, /^HTTP\/1\.1 200 /);
    } finally {
      unblock();
    }
    // Once the loop keeps up again, requests are served.
    let last = 0;
    for (let i = 0; i < 100 && last !== 200; i++) last = (await s.request("/api/v1/instance")).status;
    assert.equal(last, 200);
  });
});
