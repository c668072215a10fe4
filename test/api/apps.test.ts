import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { inOneWindow } from "../helpers/rate-limits.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { CALLBACK, countRows, OOB } from "./oauth-browser.ts";

describe("POST /api/v1/apps", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("registers an app from a JSON body and answers a CredentialApplication", async () => {
    const r = await s.request("/api/v1/apps", {
      json: { client_name: "My App", redirect_uris: OOB, scopes: "read write", website: "https://app.example" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), [
      "id",
      "name",
      "website",
      "scopes",
      "redirect_uris",
      "vapid_key",
      "redirect_uri",
      "client_id",
      "client_secret",
      "client_secret_expires_at",
    ]);
    assert.equal(r.body.name, "My App");
    assert.equal(r.body.website, "https://app.example");
    assert.deepEqual(r.body.scopes, ["read", "write"]);
    assert.deepEqual(r.body.redirect_uris, [OOB]);
    assert.equal(r.body.redirect_uri, OOB);
    const instance = await s.request("/api/v2/instance");
    assert.equal(r.body.vapid_key, instance.body.configuration.vapid.public_key, "the server's VAPID key");
    assert.match(r.body.vapid_key, /^[A-Za-z0-9_-]{87}$/);
    assert.equal(r.body.client_secret_expires_at, 0);
    assert.match(r.body.id, /^\d+$/);
    assert.ok(r.body.client_id.length >= 32);
    assert.ok(r.body.client_secret.length >= 32);
    // The secret is stored hashed, never as given.
    const row = await s.ctx.db
      .selectFrom("oauth_applications")
      .selectAll()
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    assert.notEqual(row.client_secret, r.body.client_secret);
  });

  it("accepts form bodies, defaults scopes to read and website to null", async () => {
    const r = await s.request("/api/v1/apps", { form: { client_name: "Form App", redirect_uris: CALLBACK } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.scopes, ["read"]);
    assert.equal(r.body.website, null);
    assert.deepEqual(r.body.redirect_uris, [CALLBACK]);
  });

  it("accepts multipart bodies", async () => {
    const form = new FormData();
    form.set("client_name", "Multipart App");
    form.set("redirect_uris", OOB);
    form.set("scopes", "profile");
    const r = await s.request("/api/v1/apps", { method: "POST", multipart: form });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.scopes, ["profile"]);
  });

  it("takes several redirect URIs as a space or newline separated string or as an array", async () => {
    const uris = [CALLBACK, "com.example.app:/oauth", "myapp://callback", OOB, "http://localhost:4000/cb"];
    const asString = await s.request("/api/v1/apps", {
      json: { client_name: "a", redirect_uris: `${uris[0]} ${uris[1]}\n${uris[2]}\r\n${uris[3]} ${uris[4]}` },
    });
    assert.equal(asString.status, 200, JSON.stringify(asString.body));
    assert.deepEqual(asString.body.redirect_uris, uris);
    assert.equal(asString.body.redirect_uri, uris.join("\n"));

    const asArray = await s.request("/api/v1/apps", { json: { client_name: "b", redirect_uris: uris } });
    assert.equal(asArray.status, 200);
    assert.deepEqual(asArray.body.redirect_uris, uris);

    const asFormArray = await s.request("/api/v1/apps", {
      form: { client_name: "c", "redirect_uris[]": [uris[0], uris[3]] },
    });
    assert.equal(asFormArray.status, 200, JSON.stringify(asFormArray.body));
    assert.deepEqual(asFormArray.body.redirect_uris, [uris[0], uris[3]]);
  });

  it("accepts every known scope, including granular ones", async () => {
    const r = await s.request("/api/v1/apps", {
      json: { client_name: "Granular", redirect_uris: OOB, scopes: "read:statuses write:media admin:read:accounts" },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.scopes, ["read:statuses", "write:media", "admin:read:accounts"]);
  });

  const bad: [string, Record<string, unknown>, RegExp][] = [
    ["no client_name", { redirect_uris: OOB }, /Name can't be blank/],
    ["blank client_name", { client_name: "   ", redirect_uris: OOB }, /Name can't be blank/],
    ["client_name as an array", { client_name: ["a", "b"], redirect_uris: OOB }, /Name is invalid/],
    ["client_name as an object", { client_name: { x: 1 }, redirect_uris: OOB }, /Name is invalid/],
    ["client_name too long", { client_name: "x".repeat(201), redirect_uris: OOB }, /Name is too long/],
    ["no redirect_uris", { client_name: "x" }, /Redirect URI can't be blank/],
    ["empty redirect_uris", { client_name: "x", redirect_uris: " " }, /Redirect URI can't be blank/],
    ["redirect_uris as an object", { client_name: "x", redirect_uris: { a: 1 } }, /Redirect URI is invalid/],
    ["redirect_uris with a number", { client_name: "x", redirect_uris: [OOB, 3] }, /Redirect URI is invalid/],
    ["relative redirect URI", { client_name: "x", redirect_uris: "/callback" }, /Redirect URI must be an absolute URI/],
    ["bare word redirect URI", { client_name: "x", redirect_uris: "callback" }, /absolute URI/],
    ["javascript: redirect URI", { client_name: "x", redirect_uris: "javascript:alert(1)" }, /forbidden/],
    ["JavaScript: in capitals", { client_name: "x", redirect_uris: "JavaScript://x/%0aalert(1)" }, /forbidden/],
    ["data: redirect URI", { client_name: "x", redirect_uris: "data:text/html,<b>x</b>" }, /forbidden/],
    ["vbscript: redirect URI", { client_name: "x", redirect_uris: "vbscript://msgbox" }, /forbidden/],
    ["one bad URI among good ones", { client_name: "x", redirect_uris: [CALLBACK, "javascript:x"] }, /forbidden/],
    ["redirect URI with a fragment", { client_name: "x", redirect_uris: "https://a.example/cb#x" }, /fragment/],
    ["scheme-less host:port", { client_name: "x", redirect_uris: "localhost:3000" }, /scheme/],
    ["http URI without a host", { client_name: "x", redirect_uris: "http:/" }, /Redirect URI/],
    ["huge redirect URI", { client_name: "x", redirect_uris: `https://a.example/${"x".repeat(3000)}` }, /too long/],
    ["unknown scope", { client_name: "x", redirect_uris: OOB, scopes: "read bogus" }, /Scopes/],
    ["admin scope without colon", { client_name: "x", redirect_uris: OOB, scopes: "admin" }, /Scopes/],
    ["scopes as an array", { client_name: "x", redirect_uris: OOB, scopes: ["read"] }, /Scopes is invalid/],
    ["huge scopes", { client_name: "x", redirect_uris: OOB, scopes: "read ".repeat(1000) }, /Scopes is invalid/],
    ["website not a URL", { client_name: "x", redirect_uris: OOB, website: "not a url" }, /Website is invalid/],
    ["website with another scheme", { client_name: "x", redirect_uris: OOB, website: "ftp://a.example" }, /Website/],
    ["javascript: website", { client_name: "x", redirect_uris: OOB, website: "javascript:alert(1)" }, /Website/],
    ["website as an array", { client_name: "x", redirect_uris: OOB, website: ["https://a.example"] }, /Website/],
    [
      "huge website",
      { client_name: "x", redirect_uris: OOB, website: `https://a.example/${"x".repeat(2100)}` },
      /long/,
    ],
  ];
  for (const [what, body, message] of bad) {
    it(`refuses ${what} with 422 and stores nothing`, async () => {
      const before = await countRows(s, "oauth_applications");
      const r = await s.request("/api/v1/apps", { json: body });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.match(r.body.error, /^Validation failed: /);
      assert.match(r.body.error, message);
      assert.equal(await countRows(s, "oauth_applications"), before);
    });
  }

  it("names every problem at once", async () => {
    const r = await s.request("/api/v1/apps", { json: { redirect_uris: "javascript:x", scopes: "nope" } });
    assert.equal(r.status, 422);
    assert.match(r.body.error, /Name can't be blank/);
    assert.match(r.body.error, /Redirect URI is forbidden/);
    assert.match(r.body.error, /Scopes/);
  });

  it("answers a malformed JSON body with 400 and stores nothing", async () => {
    const before = await countRows(s, "oauth_applications");
    const r = await s.request("/api/v1/apps", {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    assert.equal(r.status, 422); // an empty body is no parameters at all
    const bad = await fetch(`${s.url}/api/v1/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(bad.status, 400);
    const arr = await fetch(`${s.url}/api/v1/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "[1,2]",
    });
    assert.equal(arr.status, 400);
    assert.equal(await countRows(s, "oauth_applications"), before);
  });

  it("throttles registrations to 5 per 10 minutes per IP", async () => {
    await inOneWindow(10 * 60_000);
    const headers = { "x-forwarded-for": "203.0.113.77" };
    for (let i = 0; i < 5; i++) {
      const r = await s.request("/api/v1/apps", { json: { client_name: `t${i}`, redirect_uris: OOB }, headers });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.headers.get("x-ratelimit-limit"), "5");
    }
    const before = await countRows(s, "oauth_applications");
    const r = await s.request("/api/v1/apps", { json: { client_name: "t5", redirect_uris: OOB }, headers });
    assert.equal(r.status, 429);
    assert.deepEqual(r.body, { error: "Too many requests" });
    assert.equal(await countRows(s, "oauth_applications"), before);
    // Another address is not affected.
    const other = await s.request("/api/v1/apps", {
      json: { client_name: "t6", redirect_uris: OOB },
      headers: { "x-forwarded-for": "203.0.113.78" },
    });
    assert.equal(other.status, 200);
  });
});

describe("GET /api/v1/apps/verify_credentials", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("answers the Application of an app token, without its secret", async () => {
    const created = await s.request("/api/v1/apps", {
      json: {
        client_name: "Verify",
        redirect_uris: [CALLBACK, OOB],
        scopes: "read write",
        website: "https://v.example",
      },
    });
    const tok = await s.request("/oauth/token", {
      form: {
        grant_type: "client_credentials",
        client_id: created.body.client_id,
        client_secret: created.body.client_secret,
        scope: "write",
      },
    });
    assert.equal(tok.status, 200, JSON.stringify(tok.body));
    // No scope is needed: a write-only token works too.
    const r = await s.request("/api/v1/apps/verify_credentials", { token: tok.body.access_token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, {
      id: created.body.id,
      name: "Verify",
      website: "https://v.example",
      scopes: ["read", "write"],
      redirect_uris: [CALLBACK, OOB],
      vapid_key: created.body.vapid_key,
      redirect_uri: `${CALLBACK}\n${OOB}`,
    });
    assert.equal("client_secret" in r.body, false);
  });

  it("answers for a user token too", async () => {
    const alice = await s.createUser("alice", { scopes: "profile" });
    const r = await s.request("/api/v1/apps/verify_credentials", { token: alice.token });
    assert.equal(r.status, 200);
    assert.equal(r.body.name, "Gannet command line");
  });

  it("answers 401 without a token or with a bad or revoked one", async () => {
    assert.equal((await s.request("/api/v1/apps/verify_credentials")).status, 401);
    const bad = await s.request("/api/v1/apps/verify_credentials", { token: "nope" });
    assert.equal(bad.status, 401);
    assert.deepEqual(bad.body, { error: "The access token is invalid" });
  });
});
