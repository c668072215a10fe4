import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import {
  authorizeAsUser,
  authorizePath,
  Browser,
  CALLBACK,
  countRows,
  exchangeCode,
  formFields,
  OOB,
  pkcePair,
  type RegisteredApp,
  redirectParams,
  registerApp,
  submitSignIn,
} from "./oauth-browser.ts";

describe("authorization code flow", () => {
  let s: TestServer;
  let app: RegisteredApp;
  let alice: TestUser;
  before(async () => {
    s = await startTestServer();
    app = await registerApp(s, { redirect_uris: [CALLBACK, OOB, "myapp://callback"], scopes: "read write profile" });
    alice = await s.createUser("alice");
  });
  after(() => s.close());

  it("goes from the sign-in form to the consent page to a code and a user token", async () => {
    const b = new Browser(s);
    const path = authorizePath({
      response_type: "code",
      client_id: app.client_id,
      redirect_uri: CALLBACK,
      scope: "read profile",
      state: "st&te=1",
    });
    const signInPage = await b.request(path);
    assert.equal(signInPage.status, 200);
    assert.match(signInPage.headers.get("content-type") ?? "", /^text\/html/);
    const csp = signInPage.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /form-action 'self' https:\/\/client\.example/);
    assert.match(signInPage.body, /action="\/auth\/sign_in"/);
    assert.match(signInPage.body, /<label for="email">/);

    const signIn = await submitSignIn(b, signInPage.body, alice);
    assert.equal(signIn.status, 302);
    const back = signIn.headers.get("location")!;
    assert.ok(back.startsWith("/oauth/authorize?"), back);

    const consent = await b.request(back);
    assert.equal(consent.status, 200);
    assert.match(consent.body, /Test client/);
    assert.match(consent.body, /@alice/);
    assert.match(consent.body, /\(read\)/);
    assert.match(consent.body, /\(profile\)/);
    assert.doesNotMatch(consent.body, /\(write\)/);
    assert.match(consent.headers.get("content-security-policy") ?? "", /form-action 'self' https:\/\/client\.example/);

    const grantsBefore = await countRows(s, "oauth_access_grants");
    const approved = await b.request("/oauth/authorize", {
      method: "POST",
      form: formFields(consent.body, "/oauth/authorize"),
    });
    const location = new URL(approved.headers.get("location")!);
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    assert.equal(location.searchParams.get("state"), "st&te=1");
    const code = location.searchParams.get("code")!;
    assert.ok(code.length >= 32);
    assert.equal(await countRows(s, "oauth_access_grants"), grantsBefore + 1);
    // Codes are stored hashed.
    const rows = await s.ctx.db.selectFrom("oauth_access_grants").select("code_hash").execute();
    assert.ok(rows.every((r) => r.code_hash !== code));

    const token = await exchangeCode(s, app, code);
    assert.equal(token.status, 200, JSON.stringify(token.body));
    assert.equal(token.body.token_type, "Bearer");
    assert.equal(token.body.scope, "read profile");
    const me = await s.request("/api/v1/accounts/verify_credentials", { token: token.body.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.username, "alice");

    // A code works once.
    const tokensBefore = await countRows(s, "oauth_access_tokens");
    const reuse = await exchangeCode(s, app, code);
    assert.equal(reuse.status, 400);
    assert.equal(reuse.body.error, "invalid_grant");
    assert.equal(await countRows(s, "oauth_access_tokens"), tokensBefore);
  });

  it("checks PKCE: the verifier is required and must match", async () => {
    const bob = await s.createUser("bob");
    const { verifier, challenge } = pkcePair();
    const { response } = await authorizeAsUser(s, app, bob, {
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: "write",
    });
    const code = redirectParams(response).get("code")!;
    const missing = await exchangeCode(s, app, code);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, "invalid_request");
    const wrong = await exchangeCode(s, app, code, { code_verifier: pkcePair().verifier });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, "invalid_grant");
    const short = await exchangeCode(s, app, code, { code_verifier: "short" });
    assert.equal(short.body.error, "invalid_grant");
    const ok = await exchangeCode(s, app, code, { code_verifier: verifier });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.scope, "write");
  });

  it("refuses a verifier for a code issued without a challenge", async () => {
    const carl = await s.createUser("carl");
    const { response } = await authorizeAsUser(s, app, carl);
    const code = redirectParams(response).get("code")!;
    const r = await exchangeCode(s, app, code, { code_verifier: pkcePair().verifier });
    assert.equal(r.body.error, "invalid_grant");
  });

  it("refuses codes with another redirect URI, from another client, or expired", async () => {
    const dora = await s.createUser("dora");
    const { response } = await authorizeAsUser(s, app, dora);
    const code = redirectParams(response).get("code")!;
    const otherUri = await exchangeCode(s, app, code, { redirect_uri: OOB });
    assert.equal(otherUri.body.error, "invalid_grant");
    const noUri = await s.request("/oauth/token", {
      form: { grant_type: "authorization_code", code, client_id: app.client_id, client_secret: app.client_secret },
    });
    assert.equal(noUri.body.error, "invalid_request");
    const otherApp = await registerApp(s, { redirect_uris: CALLBACK });
    const stolen = await exchangeCode(s, otherApp, code);
    assert.equal(stolen.body.error, "invalid_grant");
    const noCode = await s.request("/oauth/token", {
      form: { grant_type: "authorization_code", client_id: app.client_id, client_secret: app.client_secret },
    });
    assert.equal(noCode.body.error, "invalid_request");
    const bogus = await exchangeCode(s, app, "not-a-code");
    assert.equal(bogus.body.error, "invalid_grant");

    await s.ctx.db
      .updateTable("oauth_access_grants")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", dora.user.id)
      .execute();
    const expired = await exchangeCode(s, app, code);
    assert.equal(expired.status, 400);
    assert.equal(expired.body.error, "invalid_grant");
  });

  it("shows the code on a page for the out-of-band redirect URI", async () => {
    const erik = await s.createUser("erik");
    const { response } = await authorizeAsUser(s, app, erik, { redirect_uri: OOB });
    assert.equal(response.status, 302);
    const location = response.headers.get("location")!;
    assert.ok(location.startsWith("/oauth/authorize/native?code="), location);
    const code = new URL(location, s.url).searchParams.get("code")!;
    const page = await s.request<string>(location);
    assert.equal(page.status, 200);
    assert.match(page.body, new RegExp(`<code class="code" id="authorization-code">${code}</code>`));
    const token = await exchangeCode(s, app, code, { redirect_uri: OOB });
    assert.equal(token.status, 200, JSON.stringify(token.body));
  });

  it("redirects to custom schemes and keeps the redirect URI's own query", async () => {
    const fred = await s.createUser("fred");
    const custom = await authorizeAsUser(s, app, fred, { redirect_uri: "myapp://callback", state: "s1" });
    assert.match(custom.response.headers.get("location")!, /^myapp:\/\/callback\?code=[\w-]+&state=s1$/);

    const withQuery = await registerApp(s, { redirect_uris: "https://client.example/cb?tenant=7" });
    const r = await authorizeAsUser(s, withQuery, fred);
    const p = redirectParams(r.response);
    assert.equal(p.get("tenant"), "7");
    assert.ok(p.get("code"));
  });

  it("answers in the fragment or by form post when asked", async () => {
    const gina = await s.createUser("gina");
    const frag = await authorizeAsUser(s, app, gina, { response_mode: "fragment", state: "f" });
    const loc = new URL(frag.response.headers.get("location")!);
    assert.equal(loc.search, "");
    const hash = new URLSearchParams(loc.hash.slice(1));
    assert.ok(hash.get("code"));
    assert.equal(hash.get("state"), "f");

    const post = await authorizeAsUser(s, app, gina, { response_mode: "form_post", scope: "write", state: "p" });
    assert.equal(post.response.status, 200);
    const fields = formFields(post.response.body, CALLBACK);
    assert.ok(fields.code);
    assert.equal(fields.state, "p");
    const csp = post.response.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'nonce-[\w-]+'/);
    assert.match(csp, /form-action 'self' https:\/\/client\.example/);
  });

  it("skips the consent page when the user already approved the same scopes, unless force_login", async () => {
    const hugo = await s.createUser("hugo");
    const first = await authorizeAsUser(s, app, hugo, { scope: "read" });
    const code = redirectParams(first.response).get("code")!;
    assert.equal((await exchangeCode(s, app, code)).status, 200);
    const again = await first.browser.request(
      authorizePath({ response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, scope: "read" }),
    );
    assert.equal(again.status, 302);
    assert.ok(redirectParams(again).get("code"));
    // Other scopes: consent again.
    const wider = await first.browser.request(
      authorizePath({ response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, scope: "read write" }),
    );
    assert.equal(wider.status, 200);
    assert.match(wider.body, /Authorize/);
    // force_login signs out and asks for the password again.
    const forced = await first.browser.request(
      authorizePath({ response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, force_login: "true" }),
    );
    assert.equal(forced.status, 200);
    assert.match(forced.body, /action="\/auth\/sign_in"/);
    const returnTo = formFields(forced.body, "/auth/sign_in").return_to;
    assert.doesNotMatch(returnTo, /force_login/);
  });

  it("denies: error=access_denied with the state, and no code", async () => {
    const ines = await s.createUser("ines");
    const b = new Browser(s);
    const start = authorizePath({
      response_type: "code",
      client_id: app.client_id,
      redirect_uri: CALLBACK,
      state: "d",
    });
    const signIn = await submitSignIn(b, (await b.request(start)).body, ines);
    const consent = await b.request(signIn.headers.get("location")!);
    const grants = await countRows(s, "oauth_access_grants");
    const deny = formFields(consent.body, "/oauth/authorize", 1);
    assert.equal(deny._method, "delete");
    const r = await b.request("/oauth/authorize", { method: "POST", form: deny });
    const p = redirectParams(r);
    assert.equal(p.get("error"), "access_denied");
    assert.equal(p.get("state"), "d");
    assert.equal(p.get("code"), null);
    // A real DELETE works the same way.
    const { _method, ...fields } = deny;
    const del = await b.request("/oauth/authorize", { method: "DELETE", form: fields });
    assert.equal(redirectParams(del).get("error"), "access_denied");
    assert.equal(await countRows(s, "oauth_access_grants"), grants);
  });

  it("refuses approvals without the session's CSRF token", async () => {
    const jon = await s.createUser("jon");
    const b = new Browser(s);
    const start = authorizePath({ response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK });
    const signIn = await submitSignIn(b, (await b.request(start)).body, jon);
    const consent = await b.request(signIn.headers.get("location")!);
    const fields = formFields(consent.body, "/oauth/authorize");
    const grants = await countRows(s, "oauth_access_grants");

    const { authenticity_token, ...noToken } = fields;
    const missing = await b.request("/oauth/authorize", { method: "POST", form: noToken });
    assert.equal(missing.status, 422);
    assert.equal(missing.headers.get("location"), null);

    const other = new Browser(s);
    const otherSignIn = await submitSignIn(other, (await other.request(start)).body, await s.createUser("kim"));
    const otherConsent = await other.request(otherSignIn.headers.get("location")!);
    const foreign = formFields(otherConsent.body, "/oauth/authorize").authenticity_token;
    const crossed = await b.request("/oauth/authorize", {
      method: "POST",
      form: { ...fields, authenticity_token: foreign },
    });
    assert.equal(crossed.status, 422);

    // Without any cookie (a cross-site POST carries none under SameSite=Lax).
    const bare = await s.request("/oauth/authorize", { form: fields });
    assert.equal(bare.status, 422);
    assert.equal(await countRows(s, "oauth_access_grants"), grants);
    assert.ok(authenticity_token);
  });

  it("re-checks the request when the form comes back", async () => {
    const lea = await s.createUser("lea");
    const b = new Browser(s);
    const start = authorizePath({ response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK });
    const signIn = await submitSignIn(b, (await b.request(start)).body, lea);
    const consent = await b.request(signIn.headers.get("location")!);
    const fields = formFields(consent.body, "/oauth/authorize");
    const grants = await countRows(s, "oauth_access_grants");
    const widened = await b.request("/oauth/authorize", {
      method: "POST",
      form: { ...fields, scope: "read admin:write" },
    });
    assert.equal(redirectParams(widened).get("error"), "invalid_scope");
    const elsewhere = await b.request("/oauth/authorize", {
      method: "POST",
      form: { ...fields, redirect_uri: "https://evil.example/cb" },
    });
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.headers.get("location"), null);
    assert.equal(await countRows(s, "oauth_access_grants"), grants);
  });

  it("escapes what applications name themselves", async () => {
    const evil = await registerApp(s, { name: '<script>alert("x")</script>', redirect_uris: CALLBACK });
    const mia = await s.createUser("mia");
    const b = new Browser(s);
    const start = authorizePath({ response_type: "code", client_id: evil.client_id, redirect_uri: CALLBACK });
    const signIn = await submitSignIn(b, (await b.request(start)).body, mia);
    const consent = await b.request(signIn.headers.get("location")!);
    assert.equal(consent.status, 200);
    assert.doesNotMatch(consent.body, /<script>alert/);
    assert.match(consent.body, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;/);
  });
});

describe("authorization request errors", () => {
  let s: TestServer;
  let app: RegisteredApp;
  before(async () => {
    s = await startTestServer();
    app = await registerApp(s, { redirect_uris: [CALLBACK, OOB], scopes: "read write" });
  });
  after(() => s.close());

  const base = () => ({ response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, state: "z" });

  it("shows a page, never a redirect, for an unknown client or redirect URI", async () => {
    const cases: [Record<string, string | undefined>, number][] = [
      [{ ...base(), client_id: "unknown" }, 401],
      [{ ...base(), client_id: undefined }, 400],
      [{ ...base(), redirect_uri: "https://evil.example/cb" }, 400],
      [{ ...base(), redirect_uri: `${CALLBACK}/more` }, 400],
      [{ ...base(), redirect_uri: undefined }, 400],
    ];
    for (const [params, status] of cases) {
      const r = await s.request<string>(authorizePath(params));
      assert.equal(r.status, status, JSON.stringify(params));
      assert.equal(r.headers.get("location"), null);
      assert.match(r.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(r.body, /An error has occurred/);
    }
    const arrayClient = await s.request<string>(
      `/oauth/authorize?client_id[]=${app.client_id}&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code`,
    );
    assert.equal(arrayClient.status, 400);
    assert.equal(arrayClient.headers.get("location"), null);
    const huge = await s.request<string>(authorizePath({ ...base(), client_id: "x".repeat(10_000) }));
    assert.equal(huge.status, 400);
  });

  it("sends request errors back to a genuine client", async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ ...base(), scope: "read admin:write" }, "invalid_scope"],
      [{ ...base(), scope: "follow" }, "invalid_scope"],
      [{ ...base(), scope: "bogus" }, "invalid_scope"],
      [{ ...base(), response_type: "token" }, "unsupported_response_type"],
      [{ ...base(), response_type: undefined }, "invalid_request"],
      [{ ...base(), code_challenge: pkcePair().challenge, code_challenge_method: "plain" }, "invalid_request"],
      [{ ...base(), code_challenge: pkcePair().challenge }, "invalid_request"],
      [{ ...base(), code_challenge: "too-short", code_challenge_method: "S256" }, "invalid_request"],
      [{ ...base(), response_mode: "bogus" }, "invalid_request"],
    ];
    for (const [params, error] of cases) {
      const r = await s.request<string>(authorizePath(params));
      const p = redirectParams(r);
      assert.equal(p.get("error"), error, JSON.stringify(params));
      assert.equal(p.get("state"), "z");
      assert.ok(p.get("error_description"));
      assert.ok(r.headers.get("location")!.startsWith(`${CALLBACK}?`));
    }
    const arrayScope = await s.request<string>(`${authorizePath(base())}&scope[]=read`);
    assert.equal(redirectParams(arrayScope).get("error"), "invalid_request");
    assert.equal(await countRows(s, "oauth_access_grants"), 0);
  });

  it("shows out-of-band request errors on a page", async () => {
    const r = await s.request<string>(authorizePath({ ...base(), redirect_uri: OOB, scope: "admin:read" }));
    assert.equal(r.status, 400);
    assert.equal(r.headers.get("location"), null);
    assert.match(r.body, /invalid_scope|scope/);
  });

  it("answers a malformed out-of-band code page with an error page", async () => {
    const r = await s.request<string>("/oauth/authorize/native?code=%3Cscript%3E");
    assert.equal(r.status, 400);
    assert.doesNotMatch(r.body, /<script>/);
  });
});
