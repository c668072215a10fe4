import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const GOOD = { username: "newbie", email: "newbie@example.com", password: "long enough pw", agreement: true };

/** The raw token from the last confirmation mail sent to `to`. */
function mailedToken(s: TestServer, to: string): string {
  const mail = s.ctx.mailer.recent.findLast((m) => m.to === to);
  assert.ok(mail, `no mail to ${to}`);
  const m = /\/auth\/confirmation\?confirmation_token=([A-Za-z0-9_-]+)/.exec(mail.text);
  assert.ok(m, mail.text);
  return m[1];
}

describe("registration (open mode, e-mail confirmation required)", () => {
  let s: TestServer;
  let app: string;
  const countUsers = () => s.ctx.repos.users.count();

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "open" });
    app = await s.appToken("read write");
  });
  after(() => s.close());

  it("answers a token for an unconfirmed user, mails the link, and the link confirms", async () => {
    const r = await s.request("/api/v1/accounts", { token: app, json: { ...GOOD, locale: "de" } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.token_type, "Bearer");
    assert.equal(r.body.scope, "read write follow push");
    assert.equal(typeof r.body.created_at, "number");
    const token = r.body.access_token as string;

    const user = await s.ctx.repos.users.getByEmail("newbie@example.com");
    assert.ok(user);
    assert.equal(user.confirmedAt, null);
    assert.equal(user.approved, true);
    assert.equal(user.locale, "de");
    assert.equal(user.signUpIp, "127.0.0.1");

    const blocked = await s.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(blocked.status, 403);
    assert.deepEqual(blocked.body, { error: "Your login is missing a confirmed e-mail address" });
    const check = await s.request("/api/v1/emails/check_confirmation", { token });
    assert.equal(check.status, 200);
    assert.equal(check.body, false);

    const raw = mailedToken(s, "newbie@example.com");
    const mail = s.ctx.mailer.recent.findLast((m) => m.to === "newbie@example.com");
    assert.ok(mail?.text.includes(`${s.ctx.config.baseUrl}/auth/confirmation?confirmation_token=${raw}`));

    const page = await s.request(`/auth/confirmation?confirmation_token=${raw}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(page.body, /confirmed/);

    const ok = await s.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.username, "newbie");
    assert.equal((await s.request("/api/v1/emails/check_confirmation", { token })).body, true);

    // The link works once.
    const again = await s.request(`/auth/confirmation?confirmation_token=${raw}`);
    assert.equal(again.status, 404);
  });

  it("shows a 404 page for a bad confirmation token", async () => {
    const r = await s.request("/auth/confirmation?confirmation_token=nope");
    assert.equal(r.status, 404);
    assert.match(r.headers.get("content-type") ?? "", /text\/html/);
    assert.equal((await s.request("/auth/confirmation")).status, 404);
  });

  it("takes form bodies, defaults the locale to en and keeps the reason", async () => {
    const r = await s.request("/api/v1/accounts", {
      token: app,
      form: {
        username: "formy",
        email: "Formy@Example.com ",
        password: "long enough pw",
        agreement: "1",
        reason: "hi",
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const user = await s.ctx.repos.users.getByEmail("formy@example.com");
    assert.equal(user?.email, "formy@example.com");
    assert.equal(user?.locale, "en");
    assert.equal(user?.reason, "hi");
  });

  it("resends the confirmation, optionally to a new address, for the creating app only", async () => {
    const r = await s.request("/api/v1/accounts", {
      token: app,
      json: { ...GOOD, username: "resender", email: "resender@example.com" },
    });
    const token = r.body.access_token as string;
    const first = mailedToken(s, "resender@example.com");

    const other = await s.createUser("otherapp");
    const foreign = await s.request("/api/v1/emails/confirmations", { method: "POST", token: other.token });
    assert.equal(foreign.status, 403);
    assert.equal(
      foreign.body.error,
      "This method is only available to the application the user originally signed-up with",
    );
    assert.equal((await s.request("/api/v1/emails/confirmations", { method: "POST" })).status, 401);

    const bad = await s.request("/api/v1/emails/confirmations", { token, json: { email: "not an email" } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.details.email[0].error, "ERR_INVALID");
    const taken = await s.request("/api/v1/emails/confirmations", { token, json: { email: "NEWBIE@example.com" } });
    assert.equal(taken.status, 422);
    assert.equal(taken.body.details.email[0].error, "ERR_TAKEN");

    const resent = await s.request("/api/v1/emails/confirmations", { token, json: { email: "moved@example.com" } });
    assert.equal(resent.status, 200);
    assert.deepEqual(resent.body, {});
    const second = mailedToken(s, "moved@example.com");
    assert.notEqual(first, second);
    assert.equal((await s.request(`/auth/confirmation?confirmation_token=${first}`)).status, 404);
    assert.equal((await s.request(`/auth/confirmation?confirmation_token=${second}`)).status, 200);
    const user = await s.ctx.repos.users.getByEmail("moved@example.com");
    assert.ok(user?.confirmedAt);
    assert.equal(user?.unconfirmedEmail, null);

    const done = await s.request("/api/v1/emails/confirmations", { method: "POST", token });
    assert.equal(done.status, 403);
    assert.equal(done.body.error, "This method is only available while the e-mail is awaiting confirmation");
  });

  it("refuses missing, bad and user tokens", async () => {
    const before = await countUsers();
    const none = await s.request("/api/v1/accounts", { json: GOOD });
    assert.equal(none.status, 401);
    const readOnly = await s.appToken("read");
    const r = await s.request("/api/v1/accounts", { token: readOnly, json: GOOD });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "This action is outside the authorized scopes");
    const user = await s.createUser("signedin");
    const u = await s.request("/api/v1/accounts", { token: user.token, json: { ...GOOD, username: "viauser" } });
    assert.equal(u.status, 403);
    assert.equal(u.body.error, "This method requires an client credentials authentication");
    assert.equal(await countUsers(), before + 1);
  });

  it("accepts an app token holding write:accounts only", async () => {
    const narrow = await s.appToken("write:accounts");
    const r = await s.request("/api/v1/accounts", {
      token: narrow,
      json: { ...GOOD, username: "narrow", email: "narrow@example.com" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });

  it("rejects bad sign-ups with Mastodon's details, storing nothing", async () => {
    const before = await countUsers();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...GOOD, username: "NEWBIE", email: "x1@example.com" }, "username", "ERR_TAKEN"],
      [{ ...GOOD, username: "fresh1", email: "NewBie@Example.com" }, "email", "ERR_TAKEN"],
      [{ ...GOOD, username: "admin", email: "x2@example.com" }, "username", "ERR_RESERVED"],
      [{ ...GOOD, username: "bad name", email: "x3@example.com" }, "username", "ERR_INVALID"],
      [{ ...GOOD, username: "dots.not.ok", email: "x4@example.com" }, "username", "ERR_INVALID"],
      [{ ...GOOD, username: "x".repeat(31), email: "x5@example.com" }, "username", "ERR_TOO_LONG"],
      [{ ...GOOD, username: "fresh2", email: "x6@example.com", password: "short" }, "password", "ERR_TOO_SHORT"],
      [{ ...GOOD, username: "fresh3", email: "x7@example.com", password: "p".repeat(100) }, "password", "ERR_TOO_LONG"],
      [{ ...GOOD, username: "fresh4", email: "x8@example.com", agreement: false }, "agreement", "ERR_ACCEPTED"],
      [{ username: "fresh5", email: "x9@example.com", password: "long enough pw" }, "agreement", "ERR_ACCEPTED"],
      [{ ...GOOD, username: "fresh6", email: "not-an-email" }, "email", "ERR_INVALID"],
      [{ ...GOOD, username: "fresh7", email: "x10@example.com", locale: "klingon!" }, "locale", "ERR_INCLUSION"],
      [{ ...GOOD, username: "fresh8", email: "x11@example.com", reason: "r".repeat(421) }, "reason", "ERR_TOO_LONG"],
      [{ ...GOOD, username: ["a", "b"], email: "x12@example.com" }, "username", "ERR_BLANK"],
      [{ ...GOOD, username: { a: 1 }, email: "x13@example.com" }, "username", "ERR_BLANK"],
      [{ ...GOOD, username: "fresh9", email: "x14@example.com", password: undefined }, "password", "ERR_BLANK"],
      [{ ...GOOD, username: "u".repeat(100_000), email: "e".repeat(100_000) }, "username", "ERR_TOO_LONG"],
    ];
    for (const [body, field, code] of cases) {
      const r = await s.request("/api/v1/accounts", { token: app, json: body });
      assert.equal(r.status, 422, `${field} ${code}: ${JSON.stringify(r.body).slice(0, 200)}`);
      assert.match(r.body.error, /^Validation failed: /);
      assert.ok(
        r.body.details[field]?.some((d: { error: string }) => d.error === code),
        `${field} ${code}: ${JSON.stringify(r.body.details).slice(0, 300)}`,
      );
    }
    const missing = await s.request("/api/v1/accounts", { token: app, json: {} });
    assert.equal(missing.status, 422);
    for (const f of ["username", "email", "password", "agreement"]) assert.ok(missing.body.details[f], f);
    const notJson = await s.request("/api/v1/accounts", {
      token: app,
      headers: { "content-type": "application/json" },
      method: "POST",
    });
    assert.equal(notJson.status, 422);
    assert.equal(await countUsers(), before);
    assert.equal(await s.ctx.repos.accounts.getByUsername("fresh1", null), undefined);
  });

  it("answers a bad JSON body with 400", async () => {
    const res = await fetch(`${s.url}/api/v1/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${app}`, "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(res.status, 400);
  });
});
