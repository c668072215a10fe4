import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Secret, TOTP } from "otpauth";
import { parseCommand } from "../../src/cli/parse-command.ts";
import { modifyAccount } from "../../src/services/admin/modify-account.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { alertText, findForm, formValues, type Page, textOf, WebClient } from "../helpers/web.ts";

const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
/** The code of the time step `offsetSteps` from now. */
const codeAt = (secret: string, offsetSteps = 0) =>
  totpOf(secret).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
/** Six digits that no step of the accepted window (and its neighbours) shows. */
function wrongCode(secret: string): string {
  const valid = new Set([-2, -1, 0, 1, 2].map((d) => codeAt(secret, d)));
  for (let n = 0; ; n++) {
    const c = String(n).padStart(6, "0");
    if (!valid.has(c)) return c;
  }
}

/** Two-factor sign-in: TOTP, recovery codes, the second step, OAuth, the password grant. */
describe("web two-factor authentication", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ OAUTH_PASSWORD_GRANT: "true" });
  });
  after(() => s?.close());

  async function signedIn(user: TestUser): Promise<WebClient> {
    const b = new WebClient(s);
    const r = await b.submit(await b.get("/auth/sign_in"), "/auth/sign_in", {
      email: user.user.email,
      password: user.password,
    });
    assert.equal(r.status, 302, r.body);
    return b;
  }

  /** Turns TOTP on through the pages; answers the secret and the recovery codes. */
  async function enableTotp(b: WebClient, user: TestUser): Promise<{ secret: string; codes: string[]; used: string }> {
    const page = await b.get("/settings/otp_authentication");
    assert.equal(page.status, 200, page.body);
    const secret = textOf(page.doc, "#otp-secret").replace(/\s/g, "");
    const used = codeAt(secret);
    const done = await b.submit(page, "/settings/otp_authentication", { otp_attempt: used, password: user.password });
    assert.equal(done.status, 200, done.body);
    const codes = done.doc.querySelectorAll("#recovery-codes code").map((c) => c.text);
    return { secret, codes, used };
  }

  /** Posts the password; answers the second step's page. */
  async function passwordStep(b: WebClient, user: TestUser, returnTo?: string): Promise<Page> {
    const form = await b.get(`/auth/sign_in${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ""}`);
    const r = await b.submit(form, "/auth/sign_in", { email: user.account.username, password: user.password });
    assert.equal(r.status, 200, r.body);
    assert.ok(r.doc.querySelector("#otp_attempt"), "no second-factor form");
    return r;
  }

  const codeForm = (page: Page) =>
    page.doc.querySelectorAll('form[action="/auth/sign_in"]').findIndex((f) => f.querySelector("#otp_attempt"));

  async function sendCode(b: WebClient, page: Page, code: string): Promise<Page> {
    return b.submit(page, "/auth/sign_in", { otp_attempt: code }, { index: codeForm(page) });
  }

  it("turns on TOTP with a QR code, a code and the password, then shows ten recovery codes", async () => {
    const ada = await s.createUser("ada");
    const b = await signedIn(ada);
    const methods = await b.get("/settings/two_factor_authentication_methods");
    assert.equal(textOf(methods.doc, "#two-factor-status"), "Two-factor authentication is off.");
    const page = await b.get("/settings/otp_authentication");
    assert.match(page.doc.querySelector("figure.qr img")?.getAttribute("src") ?? "", /^data:image\/svg\+xml;base64,/);
    assert.ok(page.doc.querySelector("figure.qr img")?.getAttribute("alt"));
    const secret = textOf(page.doc, "#otp-secret").replace(/\s/g, "");
    assert.match(secret, /^[A-Z2-7]{32}$/);
    // A reload shows the same secret; the secret is stored sealed.
    assert.equal(textOf((await b.get("/settings/otp_authentication")).doc, "#otp-secret").replace(/\s/g, ""), secret);
    const row = await s.ctx.repos.security.secondFactorOf(ada.user.id);
    assert.ok(row?.otpPendingSecret && !row.otpPendingSecret.includes(secret));

    const wrongPassword = await b.submit(page, "/settings/otp_authentication", {
      otp_attempt: codeAt(secret),
      password: "wrong",
    });
    assert.equal(wrongPassword.status, 422);
    assert.equal(textOf(wrongPassword.doc, "#password-error"), "The password is not correct.");
    const badCode = await b.submit(page, "/settings/otp_authentication", {
      otp_attempt: wrongCode(secret),
      password: ada.password,
    });
    assert.equal(badCode.status, 422);
    assert.equal(badCode.doc.querySelector("#otp_attempt")?.getAttribute("aria-describedby"), "otp_attempt-error");
    const forged = await b.submit(page, "/settings/otp_authentication", {
      otp_attempt: codeAt(secret),
      password: ada.password,
      authenticity_token: "x",
    });
    assert.equal(forged.status, 422);
    assert.equal((await s.ctx.repos.security.secondFactorOf(ada.user.id))?.otpSecret, null);

    const done = await b.submit(page, "/settings/otp_authentication", {
      otp_attempt: codeAt(secret),
      password: ada.password,
    });
    assert.equal(done.status, 200);
    const codes = done.doc.querySelectorAll("#recovery-codes code").map((c) => c.text);
    assert.equal(codes.length, 10);
    for (const c of codes) assert.match(c, /^[0-9a-f]{10}$/);
    const on = await b.get("/settings/two_factor_authentication_methods");
    assert.equal(textOf(on.doc, "#two-factor-status"), "Two-factor authentication is on.");
    assert.match(on.body, /10 codes left/);
    // Set up already: the setup page sends back to the summary.
    assert.equal((await b.get("/settings/otp_authentication")).status, 302);
  });

  it("asks for the code after the password; refuses wrong and reused codes; a recovery code works once", async () => {
    const bea = await s.createUser("bea");
    const { secret, codes, used } = await enableTotp(await signedIn(bea), bea);

    const b = new WebClient(s);
    let step = await passwordStep(b, bea);
    assert.equal(textOf(step.doc, "label[for=otp_attempt]"), "Two-factor code");
    // Not signed in yet.
    assert.equal((await b.get("/settings/sessions")).status, 302);
    step = await passwordStep(b, bea);

    const wrong = await sendCode(b, step, wrongCode(secret));
    assert.equal(wrong.status, 401);
    assert.equal(alertText(wrong.doc), "Invalid two-factor code.");
    // The code that turned TOTP on was spent.
    const reused = await sendCode(b, wrong, used);
    assert.equal(reused.status, 401);
    assert.match(alertText(reused.doc) ?? "", /already used/);
    const ok = await sendCode(b, reused, codeAt(secret, 1));
    assert.equal(ok.status, 302, ok.body);
    assert.equal(ok.headers.get("location"), "/");
    assert.equal((await b.get("/settings/sessions")).status, 200);

    // A recovery code (any case, with a dash) signs in once.
    const c2 = new WebClient(s);
    const typed = `${codes[0].slice(0, 5).toUpperCase()}-${codes[0].slice(5)}`;
    const first = await sendCode(c2, await passwordStep(c2, bea), typed);
    assert.equal(first.status, 302);
    const c3 = new WebClient(s);
    const second = await sendCode(c3, await passwordStep(c3, bea), codes[0]);
    assert.equal(second.status, 401);
    assert.equal(await s.ctx.repos.security.countRecoveryCodes(bea.user.id), 9);
  });

  it("forgets the pending second step when the visitor goes back to the form", async () => {
    const cal = await s.createUser("cal");
    const { secret } = await enableTotp(await signedIn(cal), cal);
    const b = new WebClient(s);
    const step = await passwordStep(b, cal);
    await b.get("/auth/sign_in");
    const r = await sendCode(b, step, codeAt(secret, 1));
    assert.equal(r.status, 401);
    assert.match(alertText(r.doc) ?? "", /expired/);
    assert.ok(r.doc.querySelector("#password"), "the password form again");
    // A code alone, without any password step, gets nowhere either.
    const fresh = new WebClient(s);
    const form = await fresh.get("/auth/sign_in");
    const alone = await fresh.request("/auth/sign_in", {
      method: "POST",
      form: { ...formValues(findForm(form.doc, "/auth/sign_in")), otp_attempt: codeAt(secret, 1) },
    });
    assert.equal(alone.status, 401);
    assert.equal((await fresh.get("/settings/sessions")).status, 302);
  });

  it("locks the second step after 10 attempts an hour", async () => {
    const dan = await s.createUser("dan");
    const { secret } = await enableTotp(await signedIn(dan), dan);
    const b = new WebClient(s);
    let page = await passwordStep(b, dan);
    for (let i = 0; i < 10; i++) {
      page = await sendCode(b, page, wrongCode(secret));
      assert.equal(page.status, 401);
    }
    const locked = await sendCode(b, page, codeAt(secret, 1));
    assert.equal(locked.status, 429);
    assert.match(alertText(locked.doc) ?? "", /Too many attempts/);
    assert.equal((await b.get("/settings/sessions")).status, 302);
  });

  it("refuses the password grant to users with two-factor sign-in, as Mastodon", async () => {
    const eli = await s.createUser("eli");
    const app = await s.request("/api/v1/apps", {
      json: { client_name: "pw", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" },
    });
    const grant = (user: TestUser) =>
      s.request("/oauth/token", {
        form: {
          grant_type: "password",
          client_id: app.body.client_id,
          client_secret: app.body.client_secret,
          username: user.user.email,
          password: user.password,
          scope: "read",
        },
      });
    assert.equal((await grant(eli)).status, 200);
    await enableTotp(await signedIn(eli), eli);
    const refused = await grant(eli);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "invalid_grant");
  });

  it("completes an OAuth authorization through the second step", async () => {
    const fox = await s.createUser("fox");
    const { secret } = await enableTotp(await signedIn(fox), fox);
    const callback = "https://client.example/callback";
    const app = await s.request("/api/v1/apps", {
      json: { client_name: "Two-step client", redirect_uris: callback, scopes: "read write" },
    });
    const authorize = `/oauth/authorize?response_type=code&client_id=${app.body.client_id}&redirect_uri=${encodeURIComponent(callback)}&scope=read`;
    const b = new WebClient(s);
    const start = await b.get(authorize);
    assert.ok(start.doc.querySelector("#password"));
    const step = await b.submit(start, "/auth/sign_in", { email: fox.user.email, password: fox.password });
    assert.equal(step.status, 200);
    assert.equal(step.doc.querySelector('input[name="return_to"]')?.getAttribute("value"), authorize);
    assert.match(step.headers.get("content-security-policy") ?? "", /form-action 'self' https:\/\/client\.example/);
    const signedInNow = await sendCode(b, step, codeAt(secret, 1));
    assert.equal(signedInNow.status, 302);
    assert.equal(signedInNow.headers.get("location"), authorize);
    const consent = await b.follow(signedInNow);
    assert.equal(consent.status, 200);
    const answer = await b.submit(consent, "/oauth/authorize");
    assert.equal(answer.status, 302);
    const location = new URL(answer.headers.get("location") ?? "");
    assert.equal(`${location.origin}${location.pathname}`, callback);
    const token = await s.request("/oauth/token", {
      form: {
        grant_type: "authorization_code",
        code: location.searchParams.get("code") ?? "",
        client_id: app.body.client_id,
        client_secret: app.body.client_secret,
        redirect_uri: callback,
      },
    });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    const me = await s.request("/api/v1/accounts/verify_credentials", { token: token.body.access_token });
    assert.equal(me.body.username, "fox");
  });

  it("makes new recovery codes and turns two-factor sign-in off with the password or a code", async () => {
    const gus = await s.createUser("gus");
    const b = await signedIn(gus);
    const { secret, codes } = await enableTotp(b, gus);
    const methods = await b.get("/settings/two_factor_authentication_methods");
    const action = "/settings/two_factor_authentication/recovery_codes";
    const wrong = await b.submit(methods, action, { password: "nope" });
    assert.equal(wrong.status, 422);
    assert.equal(textOf(wrong.doc, "#password-error"), "The password is not correct.");
    const fresh = await b.submit(methods, action, { password: gus.password });
    assert.equal(fresh.status, 200);
    const newCodes = fresh.doc.querySelectorAll("#recovery-codes code").map((c) => c.text);
    assert.equal(newCodes.length, 10);
    assert.equal(newCodes.filter((c) => codes.includes(c)).length, 0);
    // The old codes no longer work.
    const c2 = new WebClient(s);
    assert.equal((await sendCode(c2, await passwordStep(c2, gus), codes[1])).status, 401);

    const off = "/settings/two_factor_authentication/disable";
    const refused = await b.submit(methods, off, { otp_attempt: "not the password" });
    assert.equal(refused.status, 422);
    assert.equal(refused.doc.querySelector("#otp_attempt")?.getAttribute("aria-invalid"), "true");
    const forged = await b.submit(methods, off, { otp_attempt: gus.password, authenticity_token: "x" });
    assert.equal(forged.status, 422);
    const done = await b.submit(methods, off, { otp_attempt: codeAt(secret, 1) });
    assert.equal(done.status, 303);
    const page = await b.follow(done);
    assert.equal(textOf(page.doc, "#two-factor-status"), "Two-factor authentication is off.");
    assert.equal(await s.ctx.repos.security.countRecoveryCodes(gus.user.id), 0);
    // Signing in needs the password only again.
    assert.equal((await signedIn(gus)) instanceof WebClient, true);

    // And with the password.
    await enableTotp(b, gus);
    const again = await b.get("/settings/two_factor_authentication_methods");
    assert.equal((await b.submit(again, off, { otp_attempt: gus.password })).status, 303);
  });

  it("lets the operator turn it off (gannet accounts modify --disable-2fa)", async () => {
    const ike = await s.createUser("ike");
    await enableTotp(await signedIn(ike), ike);
    const command = parseCommand(["accounts", "modify", "ike", "--disable-2fa"]);
    assert.deepEqual(command, { kind: "accounts-modify", username: "ike", changes: { disableTwoFactor: true } });
    await modifyAccount(s.ctx, { user: ike.user, account: ike.account }, { disableTwoFactor: true });
    assert.equal(await s.ctx.repos.security.countRecoveryCodes(ike.user.id), 0);
    await signedIn(ike);
    const logs = await s.ctx.db
      .selectFrom("admin_action_logs")
      .select("action")
      .where("target_id", "=", ike.user.id)
      .execute();
    assert.deepEqual(
      logs.map((l) => l.action),
      ["disable_2fa_user"],
    );
  });

  it("offers security keys only once an app is set up; their options name this server", async () => {
    const hu = await s.createUser("hu");
    const b = await signedIn(hu);
    const before = await b.get("/settings/security_keys");
    assert.equal(before.status, 200);
    assert.match(before.body, /Set up an authenticator app first/);
    assert.equal((await b.get("/settings/security_keys/options")).status, 422);
    await enableTotp(b, hu);
    const page = await b.get("/settings/security_keys");
    assert.ok(page.doc.querySelector("#webauthn-register"));
    assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    const options = await b.get("/settings/security_keys/options");
    assert.equal(options.status, 200);
    const json = options.body as unknown as { rp: { id: string }; user: { name: string }; challenge: string };
    assert.equal(json.rp.id, new URL(s.ctx.config.baseUrl).hostname);
    assert.equal(json.user.name, "hu");
    assert.ok(typeof json.challenge === "string" && json.challenge.length > 20);
    // A made-up credential is refused, with the error shown.
    const bad = await b.submit(page, "/settings/security_keys", {
      nickname: "Fake",
      password: hu.password,
      credential: JSON.stringify({ id: "abc", rawId: "abc", type: "public-key", response: {} }),
    });
    assert.equal(bad.status, 422);
    assert.match(alertText(bad.doc) ?? "", /could not be used/);
    const noName = await b.submit(page, "/settings/security_keys", { nickname: " ", password: hu.password });
    assert.equal(noName.status, 422);
    assert.ok(noName.doc.querySelector("#nickname-error"));
    // A key (stored directly: the Chromium suite registers real ones) is listed and deleted by its owner only.
    const keyId = s.ctx.ids.next();
    await s.ctx.repos.security.insertCredential({
      id: keyId,
      userId: hu.user.id,
      externalId: "test-credential",
      publicKey: "AAAA",
      nickname: "Blue key",
      signCount: 0,
      transports: ["usb"],
      at: new Date().toISOString(),
    });
    const listed = await b.get("/settings/security_keys");
    assert.match(textOf(listed.doc, "#security-key-list"), /Blue key/);
    const taken = await b.submit(listed, "/settings/security_keys", { nickname: "Blue key", password: hu.password });
    assert.equal(taken.status, 422);
    assert.match(textOf(taken.doc, "#nickname-error"), /already/);
    const other = await s.createUser("hu2");
    const otherBrowser = await signedIn(other);
    const otherPage = await otherBrowser.get("/settings/sessions");
    const csrf = otherPage.doc.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    const stolen = await otherBrowser.request(`/settings/security_keys/${keyId}/delete`, {
      method: "POST",
      form: { authenticity_token: csrf },
    });
    assert.equal(stolen.status, 404);
    const deleted = await b.submit(listed, `/settings/security_keys/${keyId}/delete`);
    assert.equal(deleted.status, 303);
    const afterDelete = await b.follow(deleted);
    assert.equal(afterDelete.doc.querySelector('[role="status"]')?.text, "The security key was deleted.");
    assert.equal((await s.ctx.repos.security.credentialsOf(hu.user.id)).length, 0);
    // Anonymous visitors get no options.
    assert.equal((await new WebClient(s).get("/settings/security_keys/options")).status, 401);
    assert.equal((await new WebClient(s).get("/auth/sign_in/security_key_options")).status, 401);
  });
});
