import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { alertText, findForm, type Page, signIn, textOf, type WebClient } from "../helpers/web.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

/** The usernames listed in an accounts table. */
const listed = (page: Page) =>
  page.doc.querySelectorAll(".accounts-table tbody tr td:first-child a").map((a) => a.text.replace(/^@/, ""));

describe("moderation panel: accounts", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let mod: TestUser;
  let plain: TestUser;
  let troll: TestUser;
  let reporter: TestUser;
  let asAdmin: WebClient;
  let asMod: WebClient;
  let remoteId: string;

  const api = (user: TestUser, path: string) => s.request(path, { token: user.token });
  const logOf = async (targetType: string, targetId: string) =>
    (await api(owner, `/api/v1/admin/action_logs?target_type=${targetType}&target_id=${targetId}`)).body as {
      action: string;
      account: { id: string };
    }[];

  before(async () => {
    s = await startTestServer();
    owner = await s.createUser("olga", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adam", { role: "Admin", scopes: ADMIN_SCOPES });
    mod = await s.createUser("mona", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pete");
    troll = await s.createUser("trollface");
    reporter = await s.createUser("rita");
    await s.ctx.repos.accounts.update(troll.account.id, { display_name: "Loud Troll" });
    await s.ctx.repos.users.update(troll.user.id, { reason: "I like to argue" });
    const now = new Date().toISOString();
    remoteId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: remoteId,
      username: "faraway",
      domain: "remote.example",
      uri: "https://remote.example/users/faraway",
      url: "https://remote.example/@faraway",
      created_at: now,
      updated_at: now,
    });
    asAdmin = await signIn(s, admin);
    asMod = await signIn(s, mod);
  });
  after(async () => {
    await s?.close();
  });

  it("refuses a plain user (403) and sends an anonymous visitor to sign in", async () => {
    const web = await signIn(s, plain);
    assert.equal((await web.get("/admin/accounts")).status, 403);
    assert.equal((await web.get(`/admin/accounts/${troll.account.id}`)).status, 403);
    const anon = await s.request("/admin/accounts");
    assert.equal(anon.status, 302);
    assert.match(anon.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=/);
  });

  it("lists accounts and narrows them with the v2 filters", async () => {
    const all = await asMod.get("/admin/accounts");
    assert.equal(all.status, 200);
    for (const u of ["olga", "adam", "mona", "pete", "trollface"]) assert.ok(listed(all).includes(u), u);
    const row = all.doc.querySelector(`tr[data-id="${troll.account.id}"]`);
    assert.ok(row);
    assert.match(row.text, /Active/);

    const byName = await asMod.submit(all, "/admin/accounts", { username: "troll" });
    assert.deepEqual(listed(byName), ["trollface"]);
    const byDisplay = await asMod.get("/admin/accounts?display_name=Loud");
    assert.deepEqual(listed(byDisplay), ["trollface"]);
    const byEmail = await asMod.get("/admin/accounts?email=pete%40example.com");
    assert.deepEqual(listed(byEmail), ["pete"]);
    const staff = await asMod.get("/admin/accounts?permissions=staff");
    assert.deepEqual(listed(staff).sort(), ["adam", "mona", "olga"]);
    const moderators = await asMod.get("/admin/accounts?role_ids%5B%5D=1");
    assert.deepEqual(listed(moderators), ["mona"]);
    const remote = await asMod.get("/admin/accounts?origin=remote");
    assert.deepEqual(listed(remote), ["faraway"]);
    assert.deepEqual(listed(await asMod.get("/admin/accounts?by_domain=remote.example")), ["faraway"]);
    const nobody = await asMod.get("/admin/accounts?origin=remote&username=troll");
    assert.deepEqual(listed(nobody), []);
    assert.ok(nobody.doc.querySelector("#no-accounts"));
    // Addresses: those the users signed in or used the API from (all loopback here).
    const loopback = listed(await asMod.get("/admin/accounts?ip=127.0.0.0%2F8"));
    assert.ok(loopback.includes("mona") && !loopback.includes("faraway"), String(loopback));
    assert.deepEqual(listed(await asMod.get("/admin/accounts?ip=192.0.2.0%2F24")), []);
    // The same as the API's answer for the same filters.
    const viaApi = await api(mod, "/api/v2/admin/accounts?origin=local&username=troll");
    assert.deepEqual(
      viaApi.body.map((a: { username: string }) => a.username),
      listed(await asMod.get("/admin/accounts?origin=local&username=troll")),
    );
    const bad = await asMod.get("/admin/accounts?status=nonsense");
    assert.equal(bad.status, 400);
    assert.match(alertText(bad.doc) ?? "", /Unknown status/);
  });

  it("shows one account: profile, e-mail, address, sign-up reason, role and reports", async () => {
    const post = await s.request("/api/v1/statuses", { token: troll.token, json: { status: "rude words" } });
    const report = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: troll.account.id, status_ids: [post.body.id], comment: "very rude" },
    });
    assert.equal(report.status, 200);
    const page = await asMod.get(`/admin/accounts/${troll.account.id}`);
    assert.equal(page.status, 200);
    assert.match(textOf(page.doc, "h1"), /Loud Troll/);
    assert.match(textOf(page.doc, ".account-details"), /trollface@example\.com/);
    assert.match(textOf(page.doc, ".account-details"), /No role/);
    assert.match(textOf(page.doc, ".account-details"), /IP address127\.0\.0\.1/);
    assert.match(textOf(page.doc, ".account-details"), /I like to argue/);
    const link = page.doc.querySelector(`.account-reports a[href="/admin/reports/${report.body.id}"]`);
    assert.ok(link, "the report against the account is linked");
    assert.match(textOf(page.doc, ".account-reports"), /from @rita/);
    const byRita = await asMod.get(`/admin/accounts/${reporter.account.id}`);
    assert.match(textOf(byRita.doc, ".account-reports"), /about @trollface/);
    assert.equal((await asMod.get("/admin/accounts/999999999")).status, 404);
    // A remote account: no e-mail or role, and no login to disable.
    const far = await asMod.get(`/admin/accounts/${remoteId}`);
    assert.equal(far.status, 200);
    assert.doesNotMatch(textOf(far.doc, ".account-details"), /E-mail/);
    const action = findForm(far.doc, `/admin/accounts/${remoteId}/action`);
    assert.equal(action.querySelector('option[value="disable"]'), null);
    assert.ok(action.querySelector('option[value="silence"]'));
  });

  it("approves and rejects pending sign-ups", async () => {
    const newbie = await s.createUser("newbie", { approved: false });
    const spammer = await s.createUser("spammer", { approved: false });
    const pending = await asMod.get("/admin/accounts?status=pending");
    assert.deepEqual(listed(pending).sort(), ["newbie", "spammer"]);

    const page = await asMod.get(`/admin/accounts/${newbie.account.id}`);
    assert.ok(page.doc.querySelector(".pending-signup"));
    const done = await asMod.follow(await asMod.submit(page, `/admin/accounts/${newbie.account.id}/approve`));
    assert.equal(textOf(done.doc, "p.notice"), "The sign-up was approved.");
    assert.equal(done.doc.querySelector(".pending-signup"), null);
    assert.equal((await api(mod, `/api/v1/admin/accounts/${newbie.account.id}`)).body.approved, true);
    assert.deepEqual(
      (await logOf("User", newbie.user.id)).map((e) => [e.action, e.account.id]),
      [["approve", mod.account.id]],
    );

    const spamPage = await asMod.get(`/admin/accounts/${spammer.account.id}`);
    const rejected = await asMod.submit(spamPage, `/admin/accounts/${spammer.account.id}/reject`);
    assert.equal(rejected.status, 303);
    const list = await asMod.follow(rejected);
    assert.equal(textOf(list.doc, "p.notice"), "The sign-up was rejected and the account removed.");
    assert.deepEqual(listed(list), []);
    assert.equal((await api(mod, `/api/v1/admin/accounts/${spammer.account.id}`)).status, 404);
    assert.deepEqual(
      (await logOf("User", spammer.user.id)).map((e) => e.action),
      ["reject"],
    );
  });

  it("suspends with a warning, then lifts the suspension, both logged", async () => {
    const path = `/admin/accounts/${troll.account.id}`;
    const page = await asMod.get(path);
    const form = findForm(page.doc, `${path}/action`);
    assert.ok(form.querySelector('option[value="disable"]'), "local accounts can be disabled");
    const done = await asMod.follow(await asMod.submit(page, `${path}/action`, { type: "suspend", text: "Stop it." }));
    assert.equal(textOf(done.doc, "p.notice"), "The action was taken.");
    assert.match(textOf(done.doc, ".admin-account-header"), /Suspended/);
    assert.match(textOf(done.doc, ".account-warnings"), /Suspend.*by @mona.*Stop it\./);
    assert.match(textOf(done.doc, ".account-log"), /@mona suspended @trollface/);
    const json = await api(mod, `/api/v1/admin/accounts/${troll.account.id}`);
    assert.equal(json.body.suspended, true);
    assert.equal((await s.request(`/api/v1/accounts/${troll.account.id}`)).body.suspended, true);
    // The open report about the account was resolved by the action.
    assert.match(textOf(done.doc, ".account-reports"), /Resolved/);
    assert.equal(s.ctx.mailer.recent.findLast((m) => m.to === troll.user.email)?.text.includes("Stop it."), true);

    const undone = await asMod.follow(await asMod.submit(done, `${path}/unsuspend`));
    assert.equal(textOf(undone.doc, "p.notice"), "The action was lifted.");
    assert.equal((await api(mod, `/api/v1/admin/accounts/${troll.account.id}`)).body.suspended, false);
    assert.deepEqual(
      (await logOf("Account", troll.account.id)).map((e) => [e.action, e.account.id]),
      [
        ["unsuspend", mod.account.id],
        ["suspend", mod.account.id],
      ],
    );
    assert.equal(undone.doc.querySelector(`form[action="${path}/unsuspend"]`), null);
  });

  it("limits, marks sensitive, disables and lifts each; the e-mail box can be left unticked", async () => {
    const path = `/admin/accounts/${plain.account.id}`;
    const mails = () => s.ctx.mailer.recent.filter((m) => m.to === plain.user.email).length;
    for (const [type, undo, field] of [
      ["silence", "unsilence", "silenced"],
      ["sensitive", "unsensitive", "sensitized"],
      ["disable", "enable", "disabled"],
    ] as const) {
      const before = mails();
      const page = await asMod.get(path);
      const done = await asMod.follow(
        await asMod.submit(page, `${path}/action`, { type, send_email_notification: [] }),
      );
      assert.equal(textOf(done.doc, "p.notice"), "The action was taken.", type);
      assert.equal((await api(mod, `/api/v1/admin/accounts/${plain.account.id}`)).body[field], true, type);
      assert.equal(mails(), before, `no mail for ${type}`);
      await asMod.follow(await asMod.submit(done, `${path}/${undo}`));
      assert.equal((await api(mod, `/api/v1/admin/accounts/${plain.account.id}`)).body[field], false, undo);
    }
    const log = (await logOf("Account", plain.account.id)).map((e) => e.action);
    assert.deepEqual(log, ["unsensitive", "sensitive", "unsilence", "silence"]);
    // A warning only (type none) with a text.
    const page = await asMod.get(path);
    await asMod.follow(await asMod.submit(page, `${path}/action`, { type: "none", text: "Be nice." }));
    const warnings = await asMod.get(path);
    assert.match(textOf(warnings.doc, ".account-warnings"), /Warning only.*Be nice\./);
  });

  it("refuses what the service refuses: a moderator acting on an admin", async () => {
    const path = `/admin/accounts/${admin.account.id}`;
    const page = await asMod.get(path);
    const r = await asMod.submit(page, `${path}/action`, { type: "suspend" });
    assert.equal(r.status, 403);
    assert.match(alertText(r.doc) ?? "", /Not done/);
    assert.equal((await api(mod, `/api/v1/admin/accounts/${admin.account.id}`)).body.suspended, false);
  });

  it("changes the role for an admin (only roles below theirs), refuses a moderator", async () => {
    const path = `/admin/accounts/${plain.account.id}`;
    const page = await asAdmin.get(path);
    const options = findForm(page.doc, `${path}/role`)
      .querySelectorAll("option")
      .map((o) => o.text);
    assert.deepEqual(options, ["No role", "Moderator"]);
    const done = await asAdmin.follow(await asAdmin.submit(page, `${path}/role`, { role_id: "1" }));
    assert.equal(textOf(done.doc, "p.notice"), "The role was changed.");
    assert.equal((await api(admin, `/api/v1/admin/accounts/${plain.account.id}`)).body.role.name, "Moderator");
    assert.deepEqual((await logOf("User", plain.user.id)).map((e) => e.action).slice(0, 1), ["change_role"]);
    // The Admin role is not below the admin's own: refused by the service.
    const equal = await asAdmin.submit(done, `${path}/role`, { role_id: "2" });
    assert.equal(equal.status, 422);
    assert.equal((await api(admin, `/api/v1/admin/accounts/${plain.account.id}`)).body.role.name, "Moderator");

    // Moderators lack Manage Roles: no form, and a forged post is a 403.
    const modPage = await asMod.get(`/admin/accounts/${troll.account.id}`);
    assert.equal(modPage.doc.querySelector(`form[action="/admin/accounts/${troll.account.id}/role"]`), null);
    const forged = await asMod.request(`/admin/accounts/${troll.account.id}/role`, {
      method: "POST",
      form: {
        authenticity_token: findForm(modPage.doc, `/admin/accounts/${troll.account.id}/action`)
          .querySelector("input[name=authenticity_token]")
          ?.getAttribute("value") as string,
        role_id: "1",
      },
    });
    assert.equal(forged.status, 403);
    assert.equal((await api(admin, `/api/v1/admin/accounts/${troll.account.id}`)).body.role.name, "everyone");
  });

  it("deletes a suspended account's data after confirmation (Delete User Data)", async () => {
    const victim = await s.createUser("victim");
    const path = `/admin/accounts/${victim.account.id}`;
    let page = await asAdmin.get(path);
    assert.equal(page.doc.querySelector(`form[action="${path}/delete"]`), null, "only once suspended");
    page = await asAdmin.follow(await asAdmin.submit(page, `${path}/action`, { type: "suspend" }));
    const unconfirmed = await asAdmin.submit(page, `${path}/delete`, { confirm: [] });
    assert.equal(unconfirmed.status, 422);
    assert.match(alertText(unconfirmed.doc) ?? "", /confirmation box/);
    // Moderators do not have Delete User Data.
    const modPage = await asMod.get(path);
    assert.equal(modPage.doc.querySelector(`form[action="${path}/delete"]`), null);
    const done = await asAdmin.follow(await asAdmin.submit(page, `${path}/delete`, { confirm: "1" }));
    assert.equal(textOf(done.doc, "p.notice"), "The account's data is being deleted.");
    assert.deepEqual(
      (await logOf("Account", victim.account.id)).map((e) => e.action),
      ["destroy", "suspend"],
    );
  });

  it("refuses a form with a bad CSRF token (422) and changes nothing", async () => {
    const path = `/admin/accounts/${plain.account.id}`;
    const page = await asMod.get(path);
    const r = await asMod.submit(page, `${path}/action`, { type: "suspend", authenticity_token: "forged" });
    assert.equal(r.status, 422);
    assert.equal((await api(mod, `/api/v1/admin/accounts/${plain.account.id}`)).body.suspended, false);
  });
});
