import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { inOneWindow } from "../helpers/rate-limits.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("cross-cutting HTTP conventions", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("answers CORS preflights on /api and exposes Link and rate-limit headers", async () => {
    const r = await s.request("/api/v1/accounts/verify_credentials", {
      method: "OPTIONS",
      headers: {
        origin: "https://client.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    assert.ok(r.status === 204 || r.status === 200);
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
    const get = await s.request("/api/v1/accounts/verify_credentials", {
      headers: { origin: "https://client.example" },
    });
    const exposed = (get.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    for (const h of ["link", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      assert.ok(exposed.includes(h), `${h} not exposed`);
    }
  });

  it("tolerates trailing slashes", async () => {
    const alice = await s.createUser("slashy");
    const r = await s.request("/api/v1/accounts/verify_credentials/", { token: alice.token });
    assert.equal(r.status, 200);
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const r = await s.request("/api/v1/no_such_thing");
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { error: "Record not found" });
  });

  it("treats a garbage or revoked token as invalid (401)", async () => {
    const r = await s.request("/api/v1/accounts/verify_credentials", { token: "x".repeat(500) });
    assert.equal(r.status, 401);
    const bob = await s.createUser("revoked");
    await s.ctx.repos.oauth.revokeTokensOfUser(bob.user.id, new Date().toISOString());
    const r2 = await s.request("/api/v1/accounts/verify_credentials", { token: bob.token });
    assert.equal(r2.status, 401);
    assert.deepEqual(r2.body, { error: "The access token is invalid" });
  });

  it("accepts the token as an access_token query parameter", async () => {
    const carol = await s.createUser("querytoken");
    const r = await s.request(`/api/v1/accounts/verify_credentials?access_token=${carol.token}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.username, "querytoken");
  });
});

describe("rate limits", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const from = (ip: string) => ({ "x-forwarded-for": ip });

  it("does not limit loopback clients (as Mastodon exempts localhost)", async () => {
    const r = await s.request("/api/v1/accounts/verify_credentials");
    assert.equal(r.headers.get("x-ratelimit-limit"), null);
  });

  it("limits unauthenticated API use to 300 requests per 5 minutes per IP, then answers 429", async () => {
    await inOneWindow(5 * 60_000);
    const first = await s.request("/api/v1/no_such_thing", { headers: from("203.0.113.7") });
    assert.equal(first.headers.get("x-ratelimit-limit"), "300");
    assert.equal(first.headers.get("x-ratelimit-remaining"), "299");
    assert.match(first.headers.get("x-ratelimit-reset") ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    for (let i = 0; i < 299; i++) await s.request("/api/v1/no_such_thing", { headers: from("203.0.113.7") });
    const limited = await s.request("/api/v1/no_such_thing", { headers: from("203.0.113.7") });
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { error: "Too many requests" });
    assert.equal(limited.headers.get("x-ratelimit-remaining"), "0");
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);
    // Another address is not affected.
    const other = await s.request("/api/v1/no_such_thing", { headers: from("203.0.113.8") });
    assert.equal(other.status, 404);
  });

  it("limits each token to 300 requests per 5 minutes", async () => {
    await inOneWindow(5 * 60_000);
    const u = await s.createUser("busy");
    let last = await s.request("/api/v1/accounts/verify_credentials", {
      token: u.token,
      headers: from("198.51.100.1"),
    });
    assert.equal(last.headers.get("x-ratelimit-limit"), "300");
    for (let i = 0; i < 300; i++) {
      last = await s.request("/api/v1/accounts/verify_credentials", {
        token: u.token,
        headers: from(`198.51.100.${(i % 200) + 2}`),
      });
    }
    assert.equal(last.status, 429);
  });
});

describe("rate limits switched off", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ RATE_LIMITS: "off" });
  });
  after(() => s.close());

  it("sends no rate-limit headers and never answers 429", async () => {
    const r = await s.request("/api/v1/no_such_thing", { headers: { "x-forwarded-for": "203.0.113.9" } });
    assert.equal(r.headers.get("x-ratelimit-limit"), null);
  });
});

describe("request body limits", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("refuses an API body over 20 MiB with 413 before reading it all", async () => {
    const u = await s.createUser("bigbody");
    const big = "x".repeat(21 * 1024 * 1024);
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: u.token,
      headers: { "content-type": "application/json" },
      json: { note: big },
    });
    assert.equal(r.status, 413);
    assert.deepEqual(r.body, { error: "The request body is too large" });
  });

  it("refuses an OAuth form over 1 MiB", async () => {
    const r = await s.request("/oauth/token", { form: { grant_type: "x".repeat(2 * 1024 * 1024) } });
    assert.equal(r.status, 413);
  });
});

describe("chunked request bodies", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("counts a body without Content-Length as it streams and refuses it past the limit", async () => {
    const chunk = new Uint8Array(256 * 1024).fill(120);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const r = await fetch(`${s.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      duplex: "half",
    } as RequestInit);
    assert.equal(r.status, 413);
    const small = await fetch(`${s.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("grant_type=client_credentials"));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    assert.notEqual(small.status, 413);
    assert.notEqual(small.status, 500);
  });
});

describe("the token cache", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("sees changes made through this process at once", async () => {
    const u = await s.createUser("cached");
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: u.token })).status, 200);
    await s.ctx.repos.users.update(u.user.id, { disabled: true });
    const r = await s.request("/api/v1/accounts/verify_credentials", { token: u.token });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: "Your login is currently disabled" });
    await s.ctx.repos.users.update(u.user.id, { disabled: false });
    await s.ctx.repos.accounts.update(u.account.id, { display_name: "Renamed" });
    const again = await s.request("/api/v1/accounts/verify_credentials", { token: u.token });
    assert.equal(again.body.display_name, "Renamed");
  });

  it("sees changes another process commits to the SQLite database", { skip: onPostgres() }, async () => {
    const { DatabaseSync } = await import("node:sqlite");
    const u = await s.createUser("elsewhere");
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: u.token })).status, 200);
    const other = new DatabaseSync(`${s.ctx.config.dataDir}/gannet.sqlite3`);
    other
      .prepare("UPDATE oauth_access_tokens SET revoked_at = ? WHERE user_id = ?")
      .run(new Date().toISOString(), u.user.id);
    other.close();
    // Another process's commits are noticed within 2 ms.
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: u.token })).status, 401);
  });
});

function onPostgres(): boolean {
  return process.env.DATABASE_URL !== undefined;
}
