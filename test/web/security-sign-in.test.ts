import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { passwords } from "../../src/lib/passwords.ts";
import { passwordFingerprint } from "../../src/services/security/sessions.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { alertText, type Page, textOf, WebClient } from "../helpers/web.ts";

/** Sign-in by e-mail or username, its errors, and the sessions page. */
describe("web sign-in and sessions", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s?.close());

  async function signIn(user: TestUser, login: string, opts: { returnTo?: string; ua?: string } = {}) {
    const b = new WebClient(s);
    const form = await b.get(`/auth/sign_in${opts.returnTo ? `?return_to=${encodeURIComponent(opts.returnTo)}` : ""}`);
    const r = await b.request("/auth/sign_in", {
      method: "POST",
      form: { ...formOf(form), email: login, password: user.password },
      headers: opts.ua ? { "user-agent": opts.ua } : {},
    });
    return { b, r };
  }
  const formOf = (page: Page) => {
    const form = page.doc.querySelectorAll("form").find((f) => f.getAttribute("action") === "/auth/sign_in");
    assert.ok(form, page.body);
    const out: Record<string, string> = {};
    for (const i of form.querySelectorAll("input[type=hidden]"))
      out[i.getAttribute("name")!] = i.getAttribute("value")!;
    return out;
  };

  it("signs in with the e-mail address or the username, and goes to return_to or home", async () => {
    const ann = await s.createUser("ann");
    const form = await new WebClient(s).get("/auth/sign_in");
    assert.equal(form.status, 200);
    assert.equal(textOf(form.doc, "label[for=email]"), "E-mail address or username");
    assert.equal(form.doc.querySelector("#email")?.getAttribute("autocomplete"), "username");

    const byEmail = await signIn(ann, "ANN@example.com ");
    assert.equal(byEmail.r.status, 302, byEmail.r.body);
    assert.equal(byEmail.r.headers.get("location"), "/");
    const byName = await signIn(ann, "ann", { returnTo: "/settings/sessions" });
    assert.equal(byName.r.headers.get("location"), "/settings/sessions");
    const byHandle = await signIn(ann, "@Ann");
    assert.equal(byHandle.r.status, 302);
    // Signed in: the settings page shows.
    const page = await byName.b.get("/settings/sessions");
    assert.equal(page.status, 200);
    assert.equal(page.doc.querySelectorAll("#sessions tbody tr").length, 3);
  });

  it("answers a wrong password and an unknown account alike, keeping what was typed", async () => {
    const bob = await s.createUser("bob");
    const b = new WebClient(s);
    const form = await b.get("/auth/sign_in");
    const wrong = await b.submit(form, "/auth/sign_in", { email: "bob", password: "not it" });
    assert.equal(wrong.status, 401);
    assert.equal(alertText(wrong.doc), "Invalid e-mail address or password.");
    assert.equal(wrong.doc.querySelector("#email")?.getAttribute("value"), "bob");
    assert.equal(wrong.doc.querySelector("#email")?.getAttribute("aria-invalid"), "true");
    for (const login of ["nobody", "nobody@example.com", "bad name!", ""]) {
      const r = await b.submit(wrong, "/auth/sign_in", { email: login, password: bob.password });
      assert.equal(r.status, 401, login);
      assert.equal(alertText(r.doc), alertText(wrong.doc));
    }
    assert.equal((await b.get("/settings/sessions")).status, 302);
  });

  it("refuses a form without its CSRF token, and disabled logins", async () => {
    const cid = await s.createUser("cid");
    const b = new WebClient(s);
    const form = await b.get("/auth/sign_in");
    const forged = await b.submit(form, "/auth/sign_in", {
      email: "cid",
      password: cid.password,
      authenticity_token: "forged",
    });
    assert.equal(forged.status, 422);
    assert.match(alertText(forged.doc) ?? "", /expired/);
    assert.equal((await b.get("/settings/sessions")).status, 302);
    await s.ctx.repos.users.update(cid.user.id, { disabled: true });
    const disabled = await b.submit(forged, "/auth/sign_in", { email: "cid", password: cid.password });
    assert.equal(disabled.status, 403);
    assert.match(alertText(disabled.doc) ?? "", /disabled/);
  });

  it("sends users awaiting confirmation or approval to /auth/setup, unless resuming an authorization", async () => {
    const dot = await s.createUser("dot", { confirmed: false });
    assert.equal((await signIn(dot, "dot")).r.headers.get("location"), "/auth/setup");
    const eve = await s.createUser("eve", { approved: false });
    assert.equal((await signIn(eve, "eve@example.com")).r.headers.get("location"), "/auth/setup");
    const authorize =
      "/oauth/authorize?response_type=code&client_id=x&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob";
    assert.equal((await signIn(eve, "eve", { returnTo: authorize })).r.headers.get("location"), authorize);
  });

  it("lists sessions with their browser and address, marks the current one, and revokes others at once", async () => {
    const fay = await s.createUser("fay");
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    const safari =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
    const chrome =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
    const desk = (await signIn(fay, "fay", { ua: firefox })).b;
    const phone = (await signIn(fay, "fay", { ua: safari })).b;
    const other = (await signIn(fay, "fay", { ua: chrome })).b;

    const page = await desk.get("/settings/sessions");
    assert.equal(page.status, 200);
    assert.equal(page.doc.querySelector('a[aria-current="page"]')?.getAttribute("href"), "/settings/sessions");
    const rows = page.doc.querySelectorAll("#sessions tbody tr");
    assert.equal(rows.length, 3);
    const current = page.doc.querySelector("#sessions tr.current");
    assert.match(current?.text ?? "", /Firefox on Linux/);
    assert.match(current?.text ?? "", /Current session/);
    assert.match(page.body, /Safari on iOS/);
    assert.match(page.body, /Chrome on Windows/);
    assert.match(page.body, /127\.0\.0\.1/);
    // The current session has no revoke button; the others have one each.
    const revokeForms = page.doc
      .querySelectorAll("form")
      .filter((f) => /^\/settings\/sessions\/\d+\/revoke$/.test(f.getAttribute("action") ?? ""));
    assert.equal(revokeForms.length, 2);

    // Revoking needs the form's CSRF token.
    const phoneRow = rows.find((r) => r.text.includes("Safari"))!;
    const action = phoneRow.querySelector("form")!.getAttribute("action")!;
    const forged = await desk.request(action, { method: "POST", form: { authenticity_token: "x" } });
    assert.equal(forged.status, 422);
    assert.equal((await phone.get("/settings/sessions")).status, 200);

    const revoked = await desk.submit(page, action);
    assert.equal(revoked.status, 303);
    const after = await desk.follow(revoked);
    assert.equal(after.doc.querySelector('[role="status"]')?.text, "The session was revoked.");
    assert.equal(after.doc.querySelectorAll("#sessions tbody tr").length, 2);
    // The phone is signed out at once.
    const gone = await phone.get("/settings/sessions");
    assert.equal(gone.status, 302);
    assert.match(gone.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=/);
    // A revoked id, or another user's session, cannot be revoked (again).
    const again = await desk.submit(page, action);
    assert.equal(again.status, 404);

    const out = await desk.submit(after, "/settings/sessions/revoke_others");
    assert.equal(out.status, 303);
    assert.equal((await other.get("/settings/sessions")).status, 302);
    const alone = await desk.get("/settings/sessions");
    assert.equal(alone.doc.querySelectorAll("#sessions tbody tr").length, 1);
    assert.equal(alone.doc.querySelectorAll('form[action="/settings/sessions/revoke_others"]').length, 0);

    // Signing out deletes the row.
    const out2 = await desk.submit(alone, "/auth/sign_out");
    assert.equal(out2.status, 302);
    assert.equal((await s.ctx.repos.security.sessionsOf(fay.user.id)).length, 0);
  });

  it("cannot revoke another user's session", async () => {
    const gil = await s.createUser("gil");
    const hal = await s.createUser("hal");
    const gilBrowser = (await signIn(gil, "gil")).b;
    const halBrowser = (await signIn(hal, "hal")).b;
    const [halSession] = await s.ctx.repos.security.sessionsOf(hal.user.id);
    const page = await gilBrowser.get("/settings/sessions");
    const csrf = page.doc.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    const r = await gilBrowser.request(`/settings/sessions/${halSession.id}/revoke`, {
      method: "POST",
      form: { authenticity_token: csrf },
    });
    assert.equal(r.status, 404);
    assert.equal((await halBrowser.get("/settings/sessions")).status, 200);
    // Pages need a signed-in user.
    const anonymous = await new WebClient(s).get("/settings/sessions");
    assert.equal(anonymous.headers.get("location"), "/auth/sign_in?return_to=%2Fsettings%2Fsessions");
  });

  it("ends every session when the password changes; they leave the list", async () => {
    const jo = await s.createUser("jo");
    const one = (await signIn(jo, "jo")).b;
    const two = (await signIn(jo, "jo")).b;
    assert.equal((await s.ctx.repos.security.sessionsOf(jo.user.id)).length, 2);
    const hash = await passwords.hash("a brand new password", s.ctx.config.passwordHash);
    await s.ctx.repos.users.update(jo.user.id, { encrypted_password: hash });
    assert.equal((await one.get("/settings/sessions")).status, 302);
    assert.equal((await two.get("/settings/sessions")).status, 302);
    const three = (await signIn({ ...jo, password: "a brand new password" }, "jo")).b;
    const page = await three.get("/settings/sessions");
    assert.equal(page.doc.querySelectorAll("#sessions tbody tr").length, 1);
  });

  it("ends the signed-in session when an app asks for force_login", async () => {
    const kim = await s.createUser("kim");
    const { b } = await signIn(kim, "kim");
    const app = await s.request("/api/v1/apps", {
      json: { client_name: "Switcher", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" },
    });
    const page = await b.get(
      `/oauth/authorize?response_type=code&client_id=${app.body.client_id}&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&force_login=true`,
    );
    assert.ok(page.doc.querySelector("#password"), "the sign-in form");
    assert.equal((await s.ctx.repos.security.sessionsOf(kim.user.id)).length, 0);
  });

  it("keeps the newest 50 sessions of a user", async () => {
    const ivy = await s.createUser("ivy");
    const at = new Date(Date.now() - 60_000).toISOString();
    for (let i = 0; i < 55; i++) {
      await s.ctx.repos.security.insertSession({
        id: s.ctx.ids.next(),
        userId: ivy.user.id,
        sessionHash: `old-${i}`,
        passwordFingerprint: passwordFingerprint(ivy.user),
        userAgent: "x",
        ip: null,
        at,
      });
    }
    await signIn(ivy, "ivy");
    assert.equal((await s.ctx.repos.security.sessionsOf(ivy.user.id)).length, 50);
  });
});
