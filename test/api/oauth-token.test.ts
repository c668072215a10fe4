import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ALL_SCOPES } from "../../src/lib/scopes.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { countRows, OOB, type RegisteredApp, registerApp } from "./oauth-browser.ts";

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

describe("POST /oauth/token", () => {
  let s: TestServer;
  let app: RegisteredApp;
  before(async () => {
    s = await startTestServer();
    app = await registerApp(s, { redirect_uris: OOB, scopes: "read write profile" });
  });
  after(() => s.close());

  const cc = (extra: Record<string, string> = {}) => ({
    grant_type: "client_credentials",
    client_id: app.client_id,
    client_secret: app.client_secret,
    ...extra,
  });

  it("client_credentials gives an app token with scope read by default", async () => {
    const r = await s.request("/oauth/token", { form: cc() });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), ["access_token", "token_type", "scope", "created_at"]);
    assert.equal(r.body.token_type, "Bearer");
    assert.equal(r.body.scope, "read");
    assert.equal(typeof r.body.created_at, "number");
    assert.ok(Math.abs(r.body.created_at - Date.now() / 1000) < 60);
    assert.equal(r.headers.get("cache-control"), "no-store");
    // Stored hashed, without a user.
    const rows = await s.ctx.db.selectFrom("oauth_access_tokens").selectAll().execute();
    assert.ok(rows.every((t) => t.token_hash !== r.body.access_token));
    const info = await s.request("/api/v1/apps/verify_credentials", { token: r.body.access_token });
    assert.equal(info.status, 200);
    assert.equal(info.body.id, app.id);
  });

  it("an app token is refused where a user is needed (422), no token is 401", async () => {
    const r = await s.request("/oauth/token", { json: cc({ scope: "read write profile" }) });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.scope, "read write profile");
    const v = await s.request("/api/v1/accounts/verify_credentials", { token: r.body.access_token });
    assert.equal(v.status, 422);
    assert.deepEqual(v.body, { error: "This method requires an authenticated user" });
    const none = await s.request("/api/v1/accounts/verify_credentials");
    assert.equal(none.status, 401);
    assert.deepEqual(none.body, { error: "The access token is invalid" });
    const bad = await s.request("/api/v1/accounts/verify_credentials", { token: "not-a-token" });
    assert.equal(bad.status, 401);
  });

  it("a user token without the scope gets 403", async () => {
    const bob = await s.createUser("bob", { scopes: "write" });
    const v = await s.request("/api/v1/accounts/verify_credentials", { token: bob.token });
    assert.equal(v.status, 403);
    assert.deepEqual(v.body, { error: "This action is outside the authorized scopes" });
  });

  it("accepts client credentials through HTTP Basic", async () => {
    const r = await s.request("/oauth/token", {
      form: { grant_type: "client_credentials", scope: "write" },
      headers: { authorization: basic(app.client_id, app.client_secret) },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.scope, "write");
  });

  it("accepts granular scopes covered by the app's", async () => {
    const r = await s.request("/oauth/token", { form: cc({ scope: "read:statuses write:media" }) });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.scope, "read:statuses write:media");
  });

  const refusals: [string, () => Parameters<TestServer["request"]>[1], number, string][] = [
    ["scope outside the app's", () => ({ form: cc({ scope: "follow" }) }), 400, "invalid_scope"],
    ["admin scope outside the app's", () => ({ form: cc({ scope: "admin:read" }) }), 400, "invalid_scope"],
    ["unknown scope", () => ({ form: cc({ scope: "read bogus" }) }), 400, "invalid_scope"],
    ["wrong secret", () => ({ form: cc({ client_secret: "wrong" }) }), 401, "invalid_client"],
    ["unknown client", () => ({ form: cc({ client_id: "nobody" }) }), 401, "invalid_client"],
    ["no client credentials", () => ({ form: { grant_type: "client_credentials" } }), 401, "invalid_client"],
    [
      "wrong Basic credentials",
      () => ({ form: { grant_type: "client_credentials" }, headers: { authorization: basic(app.client_id, "x") } }),
      401,
      "invalid_client",
    ],
    [
      "malformed Basic header",
      () => ({ form: { grant_type: "client_credentials" }, headers: { authorization: "Basic !!!" } }),
      401,
      "invalid_client",
    ],
    ["no grant_type", () => ({ form: { client_id: app.client_id } }), 400, "invalid_request"],
    ["unknown grant_type", () => ({ form: cc({ grant_type: "implicit" }) }), 400, "unsupported_grant_type"],
    ["refresh_token grant", () => ({ form: cc({ grant_type: "refresh_token" }) }), 400, "unsupported_grant_type"],
    ["password grant while disabled", () => ({ form: cc({ grant_type: "password" }) }), 400, "unsupported_grant_type"],
    [
      "grant_type as an array",
      () => ({ json: { ...cc(), grant_type: ["client_credentials"] } }),
      400,
      "invalid_request",
    ],
    ["client_id as an object", () => ({ json: { ...cc(), client_id: { a: 1 } } }), 400, "invalid_request"],
    ["scope as a number array", () => ({ json: { ...cc(), scope: [1, 2] } }), 400, "invalid_request"],
    ["huge scope", () => ({ form: cc({ scope: "read ".repeat(2000) }) }), 400, "invalid_request"],
    ["huge client_secret", () => ({ form: cc({ client_secret: "x".repeat(100_000) }) }), 400, "invalid_request"],
  ];
  for (const [what, opts, status, error] of refusals) {
    it(`refuses ${what}: ${status} ${error}, nothing stored`, async () => {
      const before = await countRows(s, "oauth_access_tokens");
      const r = await s.request("/oauth/token", { method: "POST", ...opts() });
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.error, error);
      assert.equal(typeof r.body.error_description, "string");
      assert.equal(await countRows(s, "oauth_access_tokens"), before);
    });
  }

  it("asks for Basic credentials again after a failed Basic authentication", async () => {
    const r = await s.request("/oauth/token", {
      form: { grant_type: "client_credentials" },
      headers: { authorization: basic(app.client_id, "wrong") },
    });
    assert.equal(r.status, 401);
    assert.match(r.headers.get("www-authenticate") ?? "", /^Basic/);
  });

  it("answers a malformed JSON body with invalid_request", async () => {
    const r = await fetch(`${s.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{oops",
    });
    assert.equal(r.status, 400);
    assert.equal(((await r.json()) as { error: string }).error, "invalid_request");
  });

  it("answers CORS preflights", async () => {
    const r = await fetch(`${s.url}/oauth/token`, {
      method: "OPTIONS",
      headers: { origin: "https://web.example", "access-control-request-method": "POST" },
    });
    assert.ok(r.status === 204 || r.status === 200);
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
  });
});

describe("POST /oauth/revoke", () => {
  let s: TestServer;
  let app: RegisteredApp;
  let other: RegisteredApp;
  before(async () => {
    s = await startTestServer();
    app = await registerApp(s, { redirect_uris: OOB, scopes: "read" });
    other = await registerApp(s, { redirect_uris: OOB, scopes: "read" });
  });
  after(() => s.close());

  async function appToken(a: RegisteredApp): Promise<string> {
    const r = await s.request("/oauth/token", {
      form: { grant_type: "client_credentials", client_id: a.client_id, client_secret: a.client_secret },
    });
    assert.equal(r.status, 200);
    return r.body.access_token;
  }
  const revoke = (a: RegisteredApp, token: string) =>
    s.request("/oauth/revoke", { form: { client_id: a.client_id, client_secret: a.client_secret, token } });

  it("revokes a token (it then answers 401), and again without complaint", async () => {
    const token = await appToken(app);
    assert.equal((await s.request("/api/v1/apps/verify_credentials", { token })).status, 200);
    const r = await revoke(app, token);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    const after = await s.request("/api/v1/apps/verify_credentials", { token });
    assert.equal(after.status, 401);
    const again = await revoke(app, token);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, {});
  });

  it("refuses to revoke a user token of another application", async () => {
    const carol = await s.createUser("carol");
    // The helper's tokens belong to the command-line app: this client may not revoke them.
    const r = await revoke(app, carol.token);
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "unauthorized_client");
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: carol.token })).status, 200);
  });

  it("answers 200 {} for an unknown token", async () => {
    const r = await revoke(app, "no-such-token");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
  });

  it("refuses to revoke another client's token with 403 unauthorized_client", async () => {
    const token = await appToken(other);
    const r = await revoke(app, token);
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "unauthorized_client");
    assert.equal((await s.request("/api/v1/apps/verify_credentials", { token })).status, 200);
  });

  // Doorkeeper's refusal, word for word: one answer for every client that does not authenticate.
  const REFUSED = {
    error: "unauthorized_client",
    error_description: "You are not authorized to revoke this token",
  };

  it("refuses missing, wrong or unknown client credentials with 403 unauthorized_client, as Doorkeeper does", async () => {
    const token = await appToken(app);
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
    const attempts: [string, Parameters<TestServer["request"]>[1]][] = [
      ["no credentials", { form: { token } }],
      ["no credentials, no token", { form: {} }],
      ["no secret", { form: { client_id: app.client_id, token } }],
      ["wrong secret", { form: { client_id: app.client_id, client_secret: "x", token } }],
      ["another client's secret", { form: { client_id: app.client_id, client_secret: other.client_secret, token } }],
      ["unknown client", { form: { client_id: "nobody", client_secret: "x", token } }],
      ["client_id as a list", { json: { client_id: [app.client_id], client_secret: app.client_secret, token } }],
      ["wrong secret by Basic", { form: { token }, headers: { authorization: basic(app.client_id, "x") } }],
      ["malformed Basic", { form: { token }, headers: { authorization: "Basic !!!" } }],
    ];
    for (const [what, opts] of attempts) {
      const r = await s.request("/oauth/revoke", { method: "POST", ...opts });
      assert.equal(r.status, 403, what);
      assert.deepEqual(r.body, REFUSED, what);
      assert.equal(r.headers.get("www-authenticate"), null, what);
    }
    assert.equal((await s.request("/api/v1/apps/verify_credentials", { token })).status, 200);
    // Right credentials by Basic work.
    const ok = await s.request("/oauth/revoke", {
      form: { token },
      headers: { authorization: basic(app.client_id, app.client_secret) },
    });
    assert.equal(ok.status, 200);
    assert.equal((await s.request("/api/v1/apps/verify_credentials", { token })).status, 401);
  });

  it("answers another client's token with the same 403 body", async () => {
    const r = await revoke(app, await appToken(other));
    assert.deepEqual(r.body, REFUSED);
  });

  it("answers 200 {} to an authenticated client without a token; a non-string token is 400", async () => {
    const missing = await s.request("/oauth/revoke", {
      form: { client_id: app.client_id, client_secret: app.client_secret },
    });
    assert.equal(missing.status, 200);
    assert.deepEqual(missing.body, {});
    const arr = await s.request("/oauth/revoke", {
      json: { client_id: app.client_id, client_secret: app.client_secret, token: ["a"] },
    });
    assert.equal(arr.status, 400);
    assert.equal(arr.body.error, "invalid_request");
  });
});

describe("password grant", () => {
  it("is off by default and advertised only when on", async () => {
    const s = await startTestServer();
    try {
      const app = await registerApp(s, { redirect_uris: OOB, scopes: "read" });
      const dave = await s.createUser("dave");
      const before = await countRows(s, "oauth_access_tokens");
      const r = await s.request("/oauth/token", {
        form: {
          grant_type: "password",
          client_id: app.client_id,
          client_secret: app.client_secret,
          username: dave.user.email,
          password: dave.password,
        },
      });
      assert.equal(r.status, 400);
      assert.equal(r.body.error, "unsupported_grant_type");
      assert.equal(await countRows(s, "oauth_access_tokens"), before);
      const meta = await s.request("/.well-known/oauth-authorization-server");
      assert.deepEqual(meta.body.grant_types_supported, ["authorization_code", "client_credentials"]);
    } finally {
      await s.close();
    }
  });

  describe("with OAUTH_PASSWORD_GRANT=true", () => {
    let s: TestServer;
    let app: RegisteredApp;
    before(async () => {
      s = await startTestServer({ OAUTH_PASSWORD_GRANT: "true" });
      app = await registerApp(s, { redirect_uris: OOB, scopes: "read write profile" });
    });
    after(() => s.close());

    const grant = (extra: Record<string, string>) => ({
      grant_type: "password",
      client_id: app.client_id,
      client_secret: app.client_secret,
      ...extra,
    });

    it("gives a user token for the e-mail and password, and records the sign-in", async () => {
      const erin = await s.createUser("erin");
      const r = await s.request("/oauth/token", {
        form: grant({ username: "ERIN@example.com", password: erin.password, scope: "read profile" }),
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.scope, "read profile");
      const user = await s.ctx.repos.users.getById(erin.user.id);
      assert.ok(user?.currentSignInAt);
      assert.ok(Date.now() - Date.parse(user.currentSignInAt) < 60_000);
      const v = await s.request("/api/v1/accounts/verify_credentials", { token: r.body.access_token });
      assert.equal(v.status, 200);
      assert.equal(v.body.username, "erin");
      const meta = await s.request("/.well-known/oauth-authorization-server");
      assert.ok(meta.body.grant_types_supported.includes("password"));
    });

    it("defaults to scope read", async () => {
      const fay = await s.createUser("fay");
      const r = await s.request("/oauth/token", { json: grant({ username: fay.user.email, password: fay.password }) });
      assert.equal(r.status, 200);
      assert.equal(r.body.scope, "read");
    });

    it("refuses wrong passwords, unknown e-mails, disabled users and bad input; stores nothing", async () => {
      const gus = await s.createUser("gus");
      const hal = await s.createUser("hal");
      await s.ctx.repos.users.update(hal.user.id, { disabled: true });
      const cases: [Record<string, string>, number, string][] = [
        [{ username: gus.user.email, password: "wrong password" }, 400, "invalid_grant"],
        [{ username: "nobody@example.com", password: gus.password }, 400, "invalid_grant"],
        [{ username: hal.user.email, password: hal.password }, 400, "invalid_grant"],
        [{ password: gus.password }, 400, "invalid_request"],
        [{ username: gus.user.email }, 400, "invalid_request"],
        [{ username: gus.user.email, password: gus.password, scope: "follow" }, 400, "invalid_scope"],
        [{ username: gus.user.email, password: "x".repeat(5000) }, 400, "invalid_request"],
      ];
      const before = await countRows(s, "oauth_access_tokens");
      for (const [extra, status, error] of cases) {
        const r = await s.request("/oauth/token", { form: grant(extra) });
        assert.equal(r.status, status, `${JSON.stringify(extra).slice(0, 100)}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error, error);
      }
      assert.equal(await countRows(s, "oauth_access_tokens"), before);
      // The error for a wrong password and for an unknown e-mail is the same.
      const a = await s.request("/oauth/token", { form: grant({ username: gus.user.email, password: "nope" }) });
      const b = await s.request("/oauth/token", { form: grant({ username: "who@example.com", password: "nope" }) });
      assert.deepEqual(a.body, b.body);
    });
  });
});

describe("server metadata and userinfo", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("publishes RFC 8414 metadata", async () => {
    const r = await s.request("/.well-known/oauth-authorization-server");
    assert.equal(r.status, 200);
    const base = s.ctx.config.baseUrl;
    assert.equal(r.body.issuer, `${base}/`);
    assert.equal(r.body.authorization_endpoint, `${base}/oauth/authorize`);
    assert.equal(r.body.token_endpoint, `${base}/oauth/token`);
    assert.equal(r.body.app_registration_endpoint, `${base}/api/v1/apps`);
    assert.equal(r.body.revocation_endpoint, `${base}/oauth/revoke`);
    assert.equal(r.body.userinfo_endpoint, `${base}/oauth/userinfo`);
    assert.equal(typeof r.body.service_documentation, "string");
    assert.deepEqual(r.body.scopes_supported, [...ALL_SCOPES]);
    assert.deepEqual(r.body.response_types_supported, ["code"]);
    assert.deepEqual(r.body.response_modes_supported, ["query", "fragment", "form_post"]);
    assert.deepEqual(r.body.code_challenge_methods_supported, ["S256"]);
    assert.deepEqual(r.body.grant_types_supported, ["authorization_code", "client_credentials"]);
    assert.deepEqual(r.body.token_endpoint_auth_methods_supported, ["client_secret_basic", "client_secret_post"]);
    // Like rack-cors, CORS headers go to browsers (requests with an Origin) only.
    assert.equal(r.headers.get("access-control-allow-origin"), null);
    const browser = await s.request("/.well-known/oauth-authorization-server", {
      headers: { origin: "https://app.example" },
    });
    assert.equal(browser.headers.get("access-control-allow-origin"), "*");
  });

  it("answers userinfo for a user token with profile, by GET and POST", async () => {
    const ivy = await s.createUser("ivy", { scopes: "profile" });
    for (const method of ["GET", "POST"]) {
      const r = await s.request("/oauth/userinfo", { method, token: ivy.token });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.iss, `${s.ctx.config.baseUrl}/`);
      assert.equal(r.body.sub, ivy.account.uri);
      assert.equal(r.body.preferred_username, "ivy");
      assert.equal(r.body.name, ivy.account.displayName);
      assert.equal(r.body.profile, ivy.account.url ?? ivy.account.uri);
      assert.match(r.body.picture, /^https?:\/\//);
      assert.equal(typeof r.body.website, "string");
    }
  });

  it("refuses userinfo without profile (403), for app tokens (422) and without a token (401)", async () => {
    const jay = await s.createUser("jay", { scopes: "read" });
    assert.equal((await s.request("/oauth/userinfo", { token: jay.token })).status, 403);
    const appToken = await s.appToken("profile");
    assert.equal((await s.request("/oauth/userinfo", { token: appToken })).status, 422);
    const none = await s.request("/oauth/userinfo");
    assert.equal(none.status, 401);
    assert.deepEqual(none.body, { error: "The access token is invalid" });
  });
});
