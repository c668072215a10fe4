import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { inOneWindow } from "../helpers/rate-limits.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  authorizePath,
  Browser,
  CALLBACK,
  countRows,
  formFields,
  type RegisteredApp,
  registerApp,
  submitSignIn,
} from "./oauth-browser.ts";

const SESSION = "gannet_session";

describe("browser sign-in", () => {
  let s: TestServer;
  let app: RegisteredApp;
  let start: string;
  before(async () => {
    s = await startTestServer();
    app = await registerApp(s, { redirect_uris: CALLBACK });
    start = authorizePath({ response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK });
  });
  after(() => s.close());

  it("sets an HttpOnly, SameSite=Lax session cookie and records the sign-in", async () => {
    const ana = await s.createUser("ana");
    const b = new Browser(s);
    const form = await b.request(start);
    const anonymous = form.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`));
    assert.ok(anonymous);
    assert.match(anonymous, /HttpOnly/i);
    assert.match(anonymous, /SameSite=Lax/i);
    assert.match(anonymous, /Path=\//);
    assert.match(anonymous, /Max-Age=\d+/);
    assert.doesNotMatch(anonymous, /Secure/i);

    const r = await submitSignIn(b, form.body, ana);
    assert.equal(r.status, 302);
    assert.equal(r.headers.get("location"), start);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`));
    assert.ok(cookie);
    // The session is renewed on sign-in (no fixation).
    assert.notEqual(cookie.split(";")[0], anonymous.split(";")[0]);
    const user = await s.ctx.repos.users.getById(ana.user.id);
    assert.ok(user?.currentSignInAt && Date.now() - Date.parse(user.currentSignInAt) < 60_000);
  });

  it("shows the form again for a wrong password or an unknown e-mail, with the same message", async () => {
    const ben = await s.createUser("ben");
    const b = new Browser(s);
    const form = await b.request(start);
    const wrong = await submitSignIn(b, form.body, { user: ben.user, password: "not the password" });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /Invalid e-mail address or password/);
    assert.match(wrong.body, /action="\/auth\/sign_in"/);
    const unknown = await b.request("/auth/sign_in", {
      method: "POST",
      form: { ...formFields(wrong.body, "/auth/sign_in"), email: "nobody@example.com", password: "whatever" },
    });
    assert.equal(unknown.status, 401);
    const message = (html: string) => /<p class="error"[^>]*>([^<]*)</.exec(html)?.[1];
    assert.equal(message(unknown.body), message(wrong.body));
    // Still not signed in.
    const again = await b.request(start);
    assert.match(again.body, /action="\/auth\/sign_in"/);
  });

  it("escapes the e-mail it echoes back", async () => {
    const b = new Browser(s);
    const form = await b.request(start);
    const r = await b.request("/auth/sign_in", {
      method: "POST",
      form: { ...formFields(form.body, "/auth/sign_in"), email: '"><script>alert(1)</script>', password: "x" },
    });
    assert.equal(r.status, 401);
    assert.doesNotMatch(r.body, /<script>alert/);
    assert.match(r.body, /&quot;&gt;&lt;script&gt;/);
  });

  it("refuses bad input without a 500", async () => {
    const b = new Browser(s);
    const form = await b.request(start);
    const fields = formFields(form.body, "/auth/sign_in");
    const huge = await b.request("/auth/sign_in", {
      method: "POST",
      form: { ...fields, email: "a".repeat(100_000), password: "p".repeat(100_000) },
    });
    assert.equal(huge.status, 401);
    const missing = await b.request("/auth/sign_in", { method: "POST", form: { ...fields } });
    assert.equal(missing.status, 401);
    const arrays = await b.request("/auth/sign_in", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      form: { ...fields, "email[]": "x@example.com", "password[a]": "y" },
    });
    assert.equal(arrays.status, 401);
  });

  it("refuses disabled users, who stay signed out", async () => {
    const cid = await s.createUser("cid");
    await s.ctx.repos.users.update(cid.user.id, { disabled: true });
    const b = new Browser(s);
    const r = await submitSignIn(b, (await b.request(start)).body, cid);
    assert.equal(r.status, 403);
    assert.match(r.body, /disabled/);
    assert.match((await b.request(start)).body, /action="\/auth\/sign_in"/);
  });

  it("ends sessions of users disabled after signing in", async () => {
    const dee = await s.createUser("dee");
    const b = new Browser(s);
    await submitSignIn(b, (await b.request(start)).body, dee);
    assert.match((await b.request(start)).body, /Authorization required/);
    await s.ctx.repos.users.update(dee.user.id, { disabled: true });
    assert.match((await b.request(start)).body, /action="\/auth\/sign_in"/);
  });

  it("ends sessions when the password changes", async () => {
    const eve = await s.createUser("eve");
    const b = new Browser(s);
    await submitSignIn(b, (await b.request(start)).body, eve);
    assert.match((await b.request(start)).body, /Authorization required/);
    await s.ctx.repos.users.update(eve.user.id, { encrypted_password: "$argon2id$v=19$m=19456,t=2,p=1$x$y" });
    assert.match((await b.request(start)).body, /action="\/auth\/sign_in"/);
  });

  it("tells unconfirmed and pending users why, instead of a consent page", async () => {
    const cases: [string, { confirmed?: boolean; approved?: boolean }, RegExp][] = [
      ["fay", { confirmed: false }, /Confirm your e-mail address/],
      ["gil", { approved: false }, /awaiting approval/],
    ];
    for (const [name, opts, message] of cases) {
      const u = await s.createUser(name, opts);
      const b = new Browser(s);
      const signIn = await submitSignIn(b, (await b.request(start)).body, u);
      assert.equal(signIn.status, 302);
      const page = await b.request(signIn.headers.get("location")!);
      assert.equal(page.status, 403);
      assert.match(page.body, message);
      assert.doesNotMatch(page.body, /Authorization required/);
      // Posting an approval anyway gives no code.
      const csrf = formFields(page.body, "/auth/sign_out").authenticity_token;
      const grants = await countRows(s, "oauth_access_grants");
      const forced = await b.request("/oauth/authorize", {
        method: "POST",
        form: {
          authenticity_token: csrf,
          response_type: "code",
          client_id: app.client_id,
          redirect_uri: CALLBACK,
        },
      });
      assert.equal(forced.status, 403);
      assert.equal(forced.headers.get("location"), null);
      assert.equal(await countRows(s, "oauth_access_grants"), grants);
    }
  });

  it("only returns to local paths", async () => {
    const hal = await s.createUser("hal");
    for (const target of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      const b = new Browser(s);
      const fields = formFields((await b.request("/auth/sign_in")).body, "/auth/sign_in");
      const r = await b.request("/auth/sign_in", {
        method: "POST",
        form: { ...fields, email: hal.user.email, password: hal.password, return_to: target },
      });
      assert.equal(r.status, 302);
      assert.equal(r.headers.get("location"), "/", target);
    }
  });

  it("refuses a sign-in without the form's CSRF token", async () => {
    const ida = await s.createUser("ida");
    const b = new Browser(s);
    await b.request(start);
    const r = await b.request("/auth/sign_in", {
      method: "POST",
      form: { email: ida.user.email, password: ida.password, return_to: start },
    });
    assert.equal(r.status, 422);
    assert.match(r.body, /expired/);
    const bare = await s.request<string>("/auth/sign_in", {
      form: { email: ida.user.email, password: ida.password, authenticity_token: "forged" },
    });
    assert.equal(bare.status, 422);
    assert.equal(bare.headers.get("location"), null);
  });

  it("ignores a tampered session cookie", async () => {
    const jo = await s.createUser("jo");
    const b = new Browser(s);
    await submitSignIn(b, (await b.request(start)).body, jo);
    const value = b.cookies.get(SESSION)!;
    const [data, sig] = value.split(".");
    const payload = JSON.parse(Buffer.from(data, "base64url").toString());
    payload.u = "1";
    b.cookies.set(SESSION, `${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${sig}`);
    assert.match((await b.request(start)).body, /action="\/auth\/sign_in"/);
  });

  it("signs out with POST or DELETE (CSRF-checked)", async () => {
    const kai = await s.createUser("kai");
    for (const method of ["POST", "DELETE"]) {
      const b = new Browser(s);
      await submitSignIn(b, (await b.request(start)).body, kai);
      const consent = await b.request(start);
      // The consent page's own sign-out form (the first is the layout's menu).
      const fields = formFields(consent.body, "/auth/sign_out", 1);
      assert.equal(fields.return_to, start);
      const forged = await b.request("/auth/sign_out", { method, form: { ...fields, authenticity_token: "x" } });
      assert.equal(forged.status, 422);
      assert.match((await b.request(start)).body, /Authorization required/);
      const out = await b.request("/auth/sign_out", { method, form: fields });
      assert.equal(out.status, 302);
      assert.equal(out.headers.get("location"), start);
      assert.equal(b.cookies.has(SESSION), false);
      assert.match((await b.request(start)).body, /action="\/auth\/sign_in"/);
    }
  });

  it("GET /auth/sign_in shows the form, or who is signed in", async () => {
    const lou = await s.createUser("lou");
    const b = new Browser(s);
    const form = await b.request("/auth/sign_in");
    assert.equal(form.status, 200);
    const r = await submitSignIn(b, form.body, lou);
    // Without return_to, a sign-in ends on the home page.
    assert.equal(r.headers.get("location"), "/");
    const me = await b.request("/auth/sign_in");
    assert.match(me.body, /signed in as <strong>@lou<\/strong>/);
  });

  it("throttles sign-in attempts to 25 per 5 minutes per IP", async () => {
    await inOneWindow(5 * 60_000);
    const b = new Browser(s);
    const fields = formFields((await b.request("/auth/sign_in")).body, "/auth/sign_in");
    const headers = { "x-forwarded-for": "198.51.100.9" };
    for (let i = 0; i < 25; i++) {
      const r = await b.request("/auth/sign_in", {
        method: "POST",
        headers,
        form: { ...fields, email: "x@example.com", password: "wrong" },
      });
      assert.equal(r.status, 401);
    }
    const r = await b.request("/auth/sign_in", {
      method: "POST",
      headers,
      form: { ...fields, email: "x@example.com", password: "wrong" },
    });
    assert.equal(r.status, 429);
  });
});

// Its own describe, so that its server never runs beside another one of this file.
describe("browser sign-in over https", () => {
  it("marks the cookie Secure when the server is served over https", async () => {
    const https = await startTestServer({ LOCAL_HTTPS: "true" });
    try {
      const r = await https.request("/auth/sign_in");
      const cookie = r.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`));
      assert.match(cookie ?? "", /Secure/);
    } finally {
      await https.close();
    }
  });
});
