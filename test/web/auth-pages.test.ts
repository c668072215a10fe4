import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { COMMAND_LINE } from "../../src/services/moderation/action-log.ts";
import { createIpBlock } from "../../src/services/moderation/ip-blocks.ts";
import { createCanonicalEmailBlock, createEmailDomainBlock } from "../../src/services/moderation/sign-up-blocks.ts";
import { inOneWindow } from "../helpers/rate-limits.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { alertText, findForm, formValues, lastMailTo, linkIn, type Page, textOf, WebClient } from "../helpers/web.ts";

const PASSWORD = "a long enough password";

describe("web accounts: sign-up, confirmation, password reset, account page, deletion", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  /** A browser signed in as `email` through the sign-in form. */
  async function signedIn(email: string, password: string): Promise<WebClient> {
    const web = new WebClient(s);
    const form = await web.get("/auth/sign_in");
    const r = await web.submit(form, "/auth/sign_in", { email, password });
    assert.equal(r.status, 302, r.body);
    return web;
  }

  /** The sign-up form filled in with good values, `values` laid over them. */
  async function signUp(web: WebClient, values: Record<string, string>, headers?: Record<string, string>) {
    const page = await web.get("/auth/sign_up");
    assert.equal(page.status, 200, page.body);
    const fields = {
      ...formValues(findForm(page.doc, "/auth/sign_up")),
      password: PASSWORD,
      password_confirmation: PASSWORD,
      agreement: "1",
      ...values,
    };
    return web.request("/auth/sign_up", { method: "POST", form: fields, headers });
  }

  const errorOf = (page: Page, id: string) => {
    const input = page.doc.querySelector(`#${id}`);
    assert.ok(input, `no #${id}`);
    assert.match(input.getAttribute("aria-describedby") ?? "", new RegExp(`${id}-error`));
    assert.equal(page.doc.querySelector(`#${id}-error`)?.getAttribute("role"), "alert");
    return textOf(page.doc, `#${id}-error`);
  };

  it("signs up, lists the rules, signs in, corrects the address on the setup page, and confirms", async () => {
    await s.ctx.repos.settings.addRule({
      id: s.ctx.ids.next(),
      text: "Be kind <always>",
      hint: "",
      position: 0,
      at: new Date().toISOString(),
    });
    const web = new WebClient(s);
    const form = await web.get("/auth/sign_up");
    assert.equal(textOf(form.doc, "ol.rules"), "Be kind <always>");
    for (const id of ["username", "email", "password", "password_confirmation", "locale", "agreement"]) {
      assert.ok(form.doc.querySelector(`label[for="${id}"]`), `label for ${id}`);
    }
    assert.equal(form.doc.querySelector("#reason"), null, "no reason outside approval mode");
    assert.equal(form.doc.querySelector("#date_of_birth"), null, "no date of birth without a minimum age");

    const r = await signUp(web, { username: "Newbie", email: "newbie@typo.example", locale: "en" });
    assert.equal(r.status, 302, r.body);
    assert.equal(r.headers.get("location"), "/auth/setup");
    const user = await s.ctx.repos.users.getByEmail("newbie@typo.example");
    assert.ok(user);
    assert.equal(user.confirmedAt, null);
    assert.equal(user.approved, true);
    assert.equal(user.locale, "en");
    assert.equal(user.createdByApplicationId, null);
    assert.equal(user.signUpIp, "127.0.0.1");
    assert.ok(linkIn(s, lastMailTo(s, "newbie@typo.example").text, "/auth/confirmation"));

    let setup = await web.follow(r);
    assert.equal(setup.status, 200);
    assert.equal(textOf(setup.doc, "h1"), "Confirm your e-mail address");
    assert.match(textOf(setup.doc, "main"), /newbie@typo\.example/);

    // Sent again, then to a corrected address.
    const resent = await web.submit(setup, "/auth/confirmation");
    assert.equal(resent.headers.get("location"), "/auth/setup?resent=1");
    const bad = await web.submit(setup, "/auth/setup", { email: "not an address" });
    assert.equal(bad.status, 422);
    assert.match(errorOf(bad, "email"), /valid e-mail/);
    const moved = await web.submit(setup, "/auth/setup", { email: "newbie@fixed.example" });
    assert.equal(moved.status, 302);
    setup = await web.follow(moved);
    assert.match(textOf(setup.doc, ".notice"), /new confirmation link/);
    assert.match(textOf(setup.doc, "main"), /newbie@fixed\.example/);

    const link = linkIn(s, lastMailTo(s, "newbie@fixed.example").text, "/auth/confirmation");
    const confirmed = await web.get(link);
    assert.equal(confirmed.status, 200, confirmed.body);
    assert.equal(textOf(confirmed.doc, "h1"), "E-mail address confirmed");
    assert.ok(confirmed.doc.querySelector('main a[href="/"]'));
    const after = await s.ctx.repos.users.getById(user.id);
    assert.equal(after?.email, "newbie@fixed.example");
    assert.ok(after?.confirmedAt);
    // Usable now: the setup page sends the user on.
    assert.equal((await web.get("/auth/setup")).headers.get("location"), "/");
    // Signed in already: the sign-up form sends the user on too.
    assert.equal((await web.get("/auth/sign_up")).headers.get("location"), "/auth/setup");
  });

  it("keeps the values and shows each error next to its field; a bad CSRF token stores nothing", async () => {
    await s.createUser("taken");
    await createEmailDomainBlock(s.ctx, COMMAND_LINE, { domain: "spam.example", allowWithApproval: false });
    await createCanonicalEmailBlock(s.ctx, COMMAND_LINE, { email: "jdoe@banned.example" });
    const web = new WebClient(s);

    let r = await signUp(web, {
      username: "taken",
      email: "someone@mail.spam.example",
      password: "short",
      password_confirmation: "short",
      agreement: "",
    });
    assert.equal(r.status, 422);
    assert.match(errorOf(r, "username"), /taken/);
    assert.match(errorOf(r, "email"), /not allowed/);
    assert.match(errorOf(r, "password"), /at least 8/);
    assert.match(textOf(r.doc, "#agreement-error"), /accept the server's rules/);
    assert.equal(r.doc.querySelector("#username")?.getAttribute("value"), "taken");
    assert.equal(r.doc.querySelector("#email")?.getAttribute("value"), "someone@mail.spam.example");
    assert.equal(r.doc.querySelector("#password")?.hasAttribute("value"), false, "the password is never sent back");
    assert.doesNotMatch(r.body, /short/);

    r = await signUp(web, { username: "fresh1", email: "J.Doe+x@banned.example" });
    assert.equal(r.status, 422);
    assert.match(errorOf(r, "email"), /already in use or not allowed/);

    r = await signUp(web, { username: "fresh2", email: "fresh2@example.com", password_confirmation: "something else" });
    assert.equal(r.status, 422);
    assert.match(errorOf(r, "password_confirmation"), /do not match/);

    r = await signUp(web, { username: "admin", email: "fresh3@example.com" });
    assert.match(errorOf(r, "username"), /reserved/);
    r = await signUp(web, { username: "no-dashes", email: "fresh3@example.com" });
    assert.match(errorOf(r, "username"), /letters, numbers and underscores/);

    r = await signUp(web, { username: "fresh4", email: "fresh4@example.com", authenticity_token: "forged" });
    assert.equal(r.status, 422);
    assert.match(alertText(r.doc) ?? "", /sent from another site/);
    assert.equal(await s.ctx.repos.users.getByEmail("fresh4@example.com"), undefined);
    const anonymous = await s.request("/auth/sign_up", {
      form: { username: "fresh5", email: "fresh5@example.com", password: PASSWORD, agreement: "1" },
    });
    assert.equal(anonymous.status, 422);
    assert.equal(await s.ctx.repos.users.getByEmail("fresh5@example.com"), undefined);
  });

  it("shows the closed page while sign-ups are closed or the address is blocked, and limits attempts", async () => {
    const web = new WebClient(s);
    const form = await web.get("/auth/sign_up");
    s.ctx.config.registrationsMode = "none";
    await s.ctx.repos.settings.set("closed_registrations_message", "<p>Back <b>soon</b><script>x()</script></p>");
    try {
      const closed = await web.get("/auth/sign_up");
      assert.equal(closed.status, 200);
      assert.equal(textOf(closed.doc, "h1"), "Sign-ups are closed");
      assert.equal(textOf(closed.doc, ".closed-message"), "Back soon");
      assert.equal(closed.doc.querySelector("script"), null);
      assert.equal(closed.doc.querySelector('form[action="/auth/sign_up"]'), null);
      const refused = await web.submit(form, "/auth/sign_up", {
        username: "closedout",
        email: "closedout@example.com",
        password: PASSWORD,
        password_confirmation: PASSWORD,
        agreement: "1",
      });
      assert.equal(refused.status, 403);
      assert.equal(await s.ctx.repos.users.getByEmail("closedout@example.com"), undefined);
    } finally {
      s.ctx.config.registrationsMode = "open";
    }

    // An IP block refusing sign-ups (the client's address from the trusted proxy's X-Forwarded-For).
    await createIpBlock(s.ctx, COMMAND_LINE, { ip: "192.0.2.0/24", severity: "sign_up_block" });
    const blocked = await signUp(
      web,
      { username: "fromblocked", email: "fromblocked@example.com" },
      {
        "x-forwarded-for": "192.0.2.7",
      },
    );
    assert.equal(blocked.status, 403);
    assert.equal(textOf(blocked.doc, "h1"), "Sign-ups are closed");

    // 25 attempts per 5 minutes per address, as Mastodon's throttle on /auth.
    await inOneWindow(5 * 60 * 1000, 5000);
    const headers = { "x-forwarded-for": "198.51.100.9" };
    let last: Page | undefined;
    for (let i = 0; i < 26; i++) {
      last = await web.request("/auth/sign_up", { method: "POST", form: { username: "x" }, headers });
    }
    assert.equal(last?.status, 429);
    assert.ok(Number(last?.headers.get("retry-after")) > 0);
    assert.match(textOf(last!.doc, "h1"), /Too many attempts/);
  });

  it("in approval mode asks for a reason and a date of birth, and shows the pending state", async () => {
    s.ctx.config.registrationsMode = "approved";
    await s.ctx.repos.settings.set("require_invite_text", true);
    await s.ctx.repos.settings.set("min_age", 16);
    try {
      const web = new WebClient(s);
      const form = await web.get("/auth/sign_up");
      assert.ok(form.doc.querySelector("textarea#reason[required]"));
      assert.ok(form.doc.querySelector('input#date_of_birth[type="date"]'));
      assert.match(textOf(form.doc, ".notice"), /reviewed/);

      const young = new Date();
      young.setUTCFullYear(young.getUTCFullYear() - 10);
      let r = await signUp(web, {
        username: "waiting",
        email: "waiting@example.com",
        date_of_birth: young.toISOString().slice(0, 10),
      });
      assert.equal(r.status, 422);
      assert.match(errorOf(r, "reason"), /why you want to join/);
      assert.match(errorOf(r, "date_of_birth"), /at least 16/);

      r = await signUp(web, {
        username: "waiting",
        email: "waiting@example.com",
        reason: "I like birds",
        date_of_birth: "1990-05-17",
      });
      assert.equal(r.status, 302, r.body);
      const user = await s.ctx.repos.users.getByEmail("waiting@example.com");
      assert.equal(user?.approved, false);
      assert.equal(user?.reason, "I like birds");

      const link = linkIn(s, lastMailTo(s, "waiting@example.com").text, "/auth/confirmation");
      const confirmed = await web.get(link);
      assert.equal(confirmed.headers.get("location"), "/auth/setup");
      const setup = await web.follow(confirmed);
      assert.equal(textOf(setup.doc, "h1"), "Your account is awaiting approval");

      // The API's sign-up goes through the same rules (Mastodon 4.4's `date_of_birth`).
      const api = await s.request("/api/v1/accounts", {
        token: await s.appToken("write"),
        json: { username: "apiyoung", email: "apiyoung@example.com", password: PASSWORD, agreement: true },
      });
      assert.equal(api.status, 422);
      assert.equal(api.body.details.date_of_birth[0].error, "ERR_BLANK");
      assert.equal(api.body.details.reason[0].error, "ERR_BLANK");
    } finally {
      s.ctx.config.registrationsMode = "open";
      await s.ctx.repos.settings.set("require_invite_text", false);
      await s.ctx.repos.settings.set("min_age", null);
    }
  });

  it("answers a bad or used confirmation link with a 404 page offering a new link; resending reveals nothing", async () => {
    const web = new WebClient(s);
    const bad = await web.get("/auth/confirmation?confirmation_token=nope");
    assert.equal(bad.status, 404);
    assert.match(alertText(bad.doc) ?? "", /not valid or has already been used/);
    const unknown = await web.submit(bad, "/auth/confirmation", { email: "nobody@example.com" });
    assert.equal(unknown.status, 200);

    const u = await s.createUser("unconfirmed1", { confirmed: false });
    const page = await web.get("/auth/confirmation/new");
    const known = await web.submit(page, "/auth/confirmation", { email: "Unconfirmed1@example.com" });
    assert.equal(known.status, 200);
    assert.equal(textOf(known.doc, "main"), textOf(unknown.doc, "main"));
    const link = linkIn(s, lastMailTo(s, u.user.email).text, "/auth/confirmation");
    const ok = await web.get(link);
    assert.equal(ok.status, 200);
    assert.ok(ok.doc.querySelector('main a[href="/auth/sign_in"]'), "not signed in: a sign-in link");
    assert.equal((await web.get(link)).status, 404, "the link works once");
  });

  it("resets a password by e-mail: one answer for every address, other sessions and apps end, links expire and work once", async () => {
    const u = await s.createUser("forgetful");
    const other = await signedIn(u.user.email, u.password);
    assert.equal((await other.get("/auth/edit")).status, 200);

    const web = new WebClient(s);
    const form = await web.get("/auth/password/new");
    const unknown = await web.submit(form, "/auth/password", { email: "nobody@example.com" });
    const known = await web.submit(form, "/auth/password", { email: "FORGETFUL@example.com" });
    assert.equal(unknown.status, 200);
    assert.equal(known.status, 200);
    assert.equal(textOf(known.doc, "main"), textOf(unknown.doc, "main"));

    const link = linkIn(s, lastMailTo(s, u.user.email).text, "/auth/password/edit");
    const edit = await web.get(link);
    assert.equal(edit.status, 200);
    let r = await web.submit(edit, "/auth/password/edit", { password: PASSWORD, password_confirmation: "different" });
    assert.equal(r.status, 422);
    assert.match(errorOf(r, "password_confirmation"), /do not match/);
    r = await web.submit(edit, "/auth/password/edit", { password: "short", password_confirmation: "short" });
    assert.match(errorOf(r, "password"), /at least 8/);
    r = await web.submit(edit, "/auth/password/edit", { password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(r.status, 200, r.body);
    assert.equal(textOf(r.doc, "h1"), "Password changed");

    // The other browser is signed out, the app token revoked, the link spent.
    assert.match((await other.get("/auth/edit")).headers.get("location") ?? "", /^\/auth\/sign_in/);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: u.token })).status, 401);
    const again = await web.get(link);
    assert.equal(again.status, 404);
    assert.match(alertText(again.doc) ?? "", /expired/);
    // Signed out by the reset: the form is sent again with the new session's token.
    const csrf = again.doc.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    const spent = await web.submit(edit, "/auth/password/edit", {
      password: PASSWORD,
      password_confirmation: PASSWORD,
      authenticity_token: csrf,
    });
    assert.equal(spent.status, 404);
    await signedIn(u.user.email, PASSWORD);
    assert.match(lastMailTo(s, u.user.email).subject, /Password changed/);

    // A link older than 6 hours no longer works.
    const fresh = await web.get("/auth/password/new");
    assert.equal((await web.submit(fresh, "/auth/password", { email: u.user.email })).status, 200);
    const late = linkIn(s, lastMailTo(s, u.user.email).text, "/auth/password/edit");
    const sentAt = new Date(Date.now() - 7 * 60 * 60 * 1000).toISOString();
    await s.ctx.repos.users.update(u.user.id, { reset_password_sent_at: sentAt });
    assert.equal((await web.get(late)).status, 404);

    // At most 5 requests per address per 30 minutes.
    await inOneWindow(30 * 60 * 1000, 5000);
    const headers = { "x-forwarded-for": "203.0.113.4" };
    const fields = { ...formValues(findForm(fresh.doc, "/auth/password")), email: "limited@example.com" };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await web.request("/auth/password", { method: "POST", form: fields, headers })).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });

  it("changes the e-mail address once the new one is confirmed, after the current password", async () => {
    const u = await s.createUser("mover");
    const web = await signedIn(u.user.email, u.password);
    const page = await web.get("/auth/edit");
    assert.equal(page.status, 200);
    assert.equal(page.doc.querySelector('nav a[aria-current="page"]')?.getAttribute("href"), "/auth/edit");
    assert.ok(page.doc.querySelector('a[href="/settings/two_factor_authentication_methods"]'));
    assert.ok(page.doc.querySelector('a[href="/settings/sessions"]'));

    let r = await web.submit(page, "/auth/edit/email", { email: "mover@new.example", current_password: "wrong" });
    assert.equal(r.status, 422);
    assert.match(errorOf(r, "email_current_password"), /not your current password/);
    assert.equal(r.doc.querySelector("#email")?.getAttribute("value"), "mover@new.example");
    r = await web.submit(page, "/auth/edit/email", { email: "mover@mail.spam.example", current_password: u.password });
    assert.equal(r.status, 422);
    assert.match(errorOf(r, "email"), /not allowed/);
    r = await web.submit(page, "/auth/edit/email", { email: "taken@example.com", current_password: u.password });
    assert.match(errorOf(r, "email"), /already in use/);

    r = await web.submit(page, "/auth/edit/email", { email: "mover@new.example", current_password: u.password });
    assert.equal(r.headers.get("location"), "/auth/edit?done=email");
    const pending = await web.follow(r);
    assert.match(textOf(pending.doc, "p.notice[role=status]"), /confirmation link/);
    assert.match(textOf(pending.doc, "main"), /Waiting for confirmation: mover@new\.example/);
    assert.equal((await s.ctx.repos.users.getById(u.user.id))?.email, u.user.email, "not changed yet");
    assert.match(lastMailTo(s, u.user.email).text, /mover@new\.example/);

    const link = linkIn(s, lastMailTo(s, "mover@new.example").text, "/auth/confirmation");
    assert.equal((await web.get(link)).status, 200);
    const changed = await s.ctx.repos.users.getById(u.user.id);
    assert.equal(changed?.email, "mover@new.example");
    assert.equal(changed?.unconfirmedEmail, null);
    // Still signed in; the page shows the new address.
    assert.match(textOf((await web.get("/auth/edit")).doc, "main"), /Your address is mover@new\.example/);
  });

  it("changes the password after the current one: this browser stays signed in, others end", async () => {
    const u = await s.createUser("rotator");
    const web = await signedIn(u.user.email, u.password);
    const other = await signedIn(u.user.email, u.password);
    const page = await web.get("/auth/edit");
    const values = { current_password: "wrong password", password: PASSWORD, password_confirmation: PASSWORD };
    let r = await web.submit(page, "/auth/edit/password", values);
    assert.equal(r.status, 422);
    assert.match(errorOf(r, "password_current_password"), /not your current password/);
    r = await web.submit(page, "/auth/edit/password", { ...values, current_password: u.password, password: "short" });
    assert.match(errorOf(r, "password"), /at least 8/);
    r = await web.submit(page, "/auth/edit/password", { ...values, current_password: u.password });
    assert.equal(r.headers.get("location"), "/auth/edit?done=password");
    assert.equal((await web.follow(r)).status, 200);
    assert.match((await other.get("/auth/edit")).headers.get("location") ?? "", /^\/auth\/sign_in/);
    // Apps keep their access (Mastodon ends only the other browser sessions).
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: u.token })).status, 200);
    await signedIn(u.user.email, PASSWORD);
    assert.equal((await web.get("/.well-known/change-password")).headers.get("location"), "/auth/edit");
  });

  it("deletes one's own account after the password and the confirmation; the name stays taken", async () => {
    const u = await s.createUser("leaver");
    const web = await signedIn(u.user.email, u.password);
    const page = await web.get("/settings/delete");
    assert.equal(page.status, 200);
    let r = await web.submit(page, "/settings/delete", { password: "wrong password", confirm: "1" });
    assert.equal(r.status, 422);
    assert.match(errorOf(r, "password"), /not your current password/);
    r = await web.submit(page, "/settings/delete", { password: u.password });
    assert.equal(r.status, 422);
    assert.match(textOf(r.doc, "#confirm-error"), /tick this box/);
    assert.equal((await s.ctx.repos.users.getById(u.user.id))?.id, u.user.id, "nothing deleted yet");

    r = await web.submit(page, "/settings/delete", { password: u.password, confirm: "1" });
    assert.equal(r.status, 200, r.body);
    assert.equal(textOf(r.doc, "h1"), "Your account has been deleted");
    assert.equal(await s.ctx.repos.users.getById(u.user.id), undefined);
    const account = await s.ctx.repos.accounts.getById(u.account.id);
    assert.equal(account?.suspensionOrigin, "deleted");
    assert.equal((await s.request(`/api/v1/accounts/${u.account.id}`)).status, 410);
    assert.match((await web.get("/settings/delete")).headers.get("location") ?? "", /^\/auth\/sign_in/);
    await s.settle();

    const again = await signUp(new WebClient(s), { username: "leaver", email: u.user.email });
    assert.equal(again.status, 422);
    assert.match(errorOf(again, "username"), /taken/);
    assert.equal(again.doc.querySelector("#email-error"), null, "the address is free again");
  });
});
