import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { LoadShedder } from "../../src/http/middleware/overload.ts";
import { blockEveryTurn } from "../helpers/busy-loop.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/**
 * Asks `path` in bursts of `burst` requests at once until one answers `status` (at most `tries`
 * bursts); that answer, or the last one.
 */
async function askUntil(s: TestServer, path: string, status: number, burst = 1, tries = 100) {
  let last = await s.request(path);
  for (let i = 0; i < tries && last.status !== status; i++) {
    const answers = await Promise.all(Array.from({ length: burst }, () => s.request(path)));
    last = answers.find((r) => r.status === status) ?? answers[answers.length - 1];
  }
  return last;
}

describe("overload: a lagging event loop", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ LOAD_SHEDDING: "on", LOAD_SHEDDING_LAG_MS: "1", LOAD_SHEDDING_RETRY_AFTER: "3" });
  });
  after(() => s.close());

  it("refuses requests at once with 503, Retry-After and Mastodon's error body, but not /health", async () => {
    const unblock = blockEveryTurn(30);
    try {
      // A turn of the loop refuses what comes after the requests it has already taken.
      const refused = await askUntil(s, "/api/v1/instance", 503, 5);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get("retry-after"), "3");
      assert.match(refused.headers.get("content-type") ?? "", /^application\/json/);
      assert.deepEqual(Object.keys(refused.body), ["error"]);
      assert.equal(typeof refused.body.error, "string");
      // Inbox deliveries are refused the same way (remote servers retry a 503).
      const inbox = await fetch(`${s.url}/inbox`, {
        method: "POST",
        headers: { "content-type": "application/activity+json", signature: 'keyId="x"' },
        body: "{}",
      });
      if (inbox.status === 503) assert.equal(inbox.headers.get("retry-after"), "3");
      // The health check still answers while requests are refused.
      for (let i = 0; i < 5; i++) {
        const health = await s.request("/health");
        assert.equal(health.status, 200);
        assert.equal(health.body, "OK");
      }
    } finally {
      unblock();
    }
    // Once the loop keeps up again, requests are served.
    const served = await askUntil(s, "/api/v1/instance", 200);
    assert.equal(served.status, 200);
  });
});

describe("overload: too many requests in flight", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ LOAD_SHEDDING: "on", LOAD_SHEDDING_MAX_IN_FLIGHT: "1", LOAD_SHEDDING_LAG_MS: "60000" });
  });
  after(() => s.close());

  it("refuses new requests while the bound is reached, and serves again after", async () => {
    // A request whose body never finishes stays in flight.
    const host = new URL(s.url);
    const socket: Socket = connect(Number(host.port), host.hostname);
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.on("error", () => {});
    socket.write(
      `POST /api/v1/apps HTTP/1.1\r\nHost: ${host.host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"client_name":`,
    );
    try {
      const refused = await askUntil(s, "/api/v1/instance", 503);
      assert.equal(refused.status, 503);
      assert.ok(refused.headers.get("retry-after"));
      assert.equal(typeof refused.body.error, "string");
      assert.equal((await s.request("/health")).status, 200);
    } finally {
      socket.destroy();
    }
    assert.equal((await askUntil(s, "/api/v1/instance", 200)).status, 200);
  });
});

describe("overload: the defaults", () => {
  let s: TestServer;
  before(async () => {
    // The shipped defaults (the suite's other servers run with LOAD_SHEDDING=off: test/helpers/server.ts).
    s = await startTestServer({ LOAD_SHEDDING: "on" });
  });
  after(() => s.close());

  it("are on, and never refuse a burst of concurrent requests", async () => {
    assert.equal(s.ctx.config.loadShedding.enabled, true);
    const answers = await Promise.all(Array.from({ length: 200 }, () => s.request("/api/v1/instance")));
    assert.deepEqual(
      answers.filter((r) => r.status !== 200).map((r) => r.status),
      [],
    );
  });
});

describe("overload: LOAD_SHEDDING=off", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ LOAD_SHEDDING: "off", LOAD_SHEDDING_LAG_MS: "1", LOAD_SHEDDING_MAX_IN_FLIGHT: "1" });
  });
  after(() => s.close());

  it("never refuses", async () => {
    const unblock = blockEveryTurn(30);
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => s.request("/api/v1/instance")));
      assert.deepEqual(
        answers.filter((r) => r.status !== 200).map((r) => r.status),
        [],
      );
    } finally {
      unblock();
    }
  });
});

describe("overload: what counts as overloaded (LoadShedder's signal)", () => {
  const config = { enabled: true, lagMs: 1, maxInFlight: 0, retryAfterSeconds: 2 };
  /** Holds the loop for `ms` now. */
  const block = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      // busy
    }
  };

  it("one long turn in an idle loop (a slow request, a GC pause) does not shed what comes after it", async () => {
    const shedder = new LoadShedder(config);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      block(300);
      assert.equal(shedder.overloaded(), false);
    } finally {
      shedder.stop();
    }
  });

  it("a loop busy turn after turn sheds what a long turn reads late", async () => {
    const shedder = new LoadShedder(config);
    const unblock = blockEveryTurn(30);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      assert.ok(shedder.busy >= 0.9, `busy ${shedder.busy}`);
      block(5);
      assert.equal(shedder.overloaded(), true);
    } finally {
      unblock();
      shedder.stop();
    }
  });

  it("an idle server stops sampling its loop until the next request, which reads it as idle", async () => {
    const shedder = new LoadShedder(config);
    try {
      assert.equal(shedder.sampling, true);
      // 20 idle samples of 10 ms; a busy test machine may make them later.
      for (let i = 0; i < 100 && shedder.sampling; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(shedder.sampling, false);
      assert.equal(shedder.overloaded(), false);
      assert.equal(shedder.sampling, true);
      assert.ok(shedder.busy < 0.5, `busy ${shedder.busy}`);
    } finally {
      shedder.stop();
    }
    assert.equal(shedder.sampling, false);
  });

  it("a saturated loop whose turns stay short (a closed loop of clients at capacity) does not shed", () => {
    const shedder = new LoadShedder({ ...config, lagMs: 100 });
    try {
      shedder.busy = 1; // as measured after a while at capacity
      block(5);
      assert.equal(shedder.overloaded(), false);
      // Once the current turn has run past LOAD_SHEDDING_LAG_MS, it does.
      block(100);
      assert.equal(shedder.overloaded(), true);
    } finally {
      shedder.stop();
    }
  });
});
