import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { alertText, findForm, signIn, textOf, type WebClient } from "../helpers/web.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

describe("moderation panel: reports", () => {
  let s: TestServer;
  let mod: TestUser;
  let mod2: TestUser;
  let plain: TestUser;
  let troll: TestUser;
  let web: WebClient;
  let reportId: string;
  let remoteReportId: string;
  let remoteId: string;

  const api = (path: string, token = mod.token) => s.request(path, { token });
  const ids = (page: { doc: { querySelectorAll(q: string): { getAttribute(n: string): string | undefined }[] } }) =>
    page.doc.querySelectorAll("table.admin-reports-table tbody tr").map((tr) => tr.getAttribute("data-id"));
  const logs = (targetType: string) => s.ctx.repos.adminActionLogs.page({ targetType }, { limit: 50 });

  before(async () => {
    s = await startTestServer();
    mod = await s.createUser("mona", { role: "Moderator", scopes: ADMIN_SCOPES });
    mod2 = await s.createUser("milo", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("plain");
    troll = await s.createUser("troll");
    const reporter = await s.createUser("rita");
    // A post with a content warning and an image with a description.
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const fd = new FormData();
    fd.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "a.png");
    fd.append("description", "A dark blue square");
    const media = await s.request("/api/v2/media", { token: troll.token, multipart: fd });
    assert.ok(media.status === 200 || media.status === 202, JSON.stringify(media.body));
    await s.settle();
    const post = await s.request("/api/v1/statuses", {
      token: troll.token,
      json: { status: "Buy cheap stuff now", spoiler_text: "ads", media_ids: [media.body.id] },
    });
    assert.equal(post.status, 200, JSON.stringify(post.body));
    const r = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: troll.account.id, status_ids: [post.body.id], comment: "spammy spam", category: "spam" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    reportId = r.body.id;
    // A report about a remote account.
    remoteId = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.db
      .insertInto("accounts")
      .values({
        id: remoteId,
        username: "faraway",
        domain: "remote.example",
        uri: "https://remote.example/users/faraway",
        display_name: "",
        note: "",
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    const r2 = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: remoteId, comment: "far away trouble" },
    });
    assert.equal(r2.status, 200, JSON.stringify(r2.body));
    remoteReportId = r2.body.id;
    web = await signIn(s, mod);
  });
  after(() => s?.close());

  it("lists unresolved reports and filters them by origin and account", async () => {
    const page = await web.get("/admin/reports");
    assert.equal(page.status, 200);
    assert.deepEqual(ids(page), [remoteReportId, reportId]);
    const row = page.doc.querySelector(`tr[data-id="${reportId}"]`);
    assert.ok(row);
    assert.match(row.text, /@troll/);
    assert.match(row.text, /@rita/);
    assert.match(row.text, /Spam/);
    assert.equal(row.querySelector("td.num")?.text, "1");
    assert.ok(row.querySelector(`a[href="/admin/reports/${reportId}"]`));
    assert.ok(row.querySelector(`a[href="/admin/accounts/${troll.account.id}"]`));

    const form = findForm(page.doc, "/admin/reports");
    assert.equal(form.getAttribute("method"), "get");
    assert.deepEqual(ids(await web.submit(page, "/admin/reports", { origin: "local" })), [reportId]);
    assert.deepEqual(ids(await web.submit(page, "/admin/reports", { origin: "remote" })), [remoteReportId]);
    assert.deepEqual(ids(await web.submit(page, "/admin/reports", { target: "faraway@remote.example" })), [
      remoteReportId,
    ]);
    assert.deepEqual(ids(await web.get(`/admin/reports?target_account_id=${troll.account.id}`)), [reportId]);
    const unknown = await web.submit(page, "/admin/reports", { target: "nobody" });
    assert.deepEqual(ids(unknown), []);
    assert.match(alertText(unknown.doc) ?? "", /nobody/);
    assert.deepEqual(ids(await web.submit(page, "/admin/reports", { resolved: "1" })), []);
  });

  it("shows one report: accounts, comment, category, the posts with their warning and alt text", async () => {
    const page = await web.get(`/admin/reports/${reportId}`);
    assert.equal(page.status, 200);
    const facts = textOf(page.doc, "dl.admin-report-facts");
    assert.match(facts, /@troll/);
    assert.match(facts, /@rita/);
    assert.match(facts, /Spam/);
    assert.match(facts, /Unresolved/);
    assert.ok(page.doc.querySelector(`dl a[href="/admin/accounts/${troll.account.id}"]`));
    assert.equal(textOf(page.doc, "blockquote.admin-report-comment"), "spammy spam");
    assert.match(textOf(page.doc, ".admin-report-cw"), /ads/);
    assert.match(textOf(page.doc, ".admin-report-content"), /Buy cheap stuff now/);
    assert.equal(textOf(page.doc, ".admin-report-media .alt"), "A dark blue square");
    // A remote account cannot be frozen: the act form does not offer it.
    const remote = await web.get(`/admin/reports/${remoteReportId}`);
    assert.ok(remote.doc.querySelector("input[name=type][value=suspend]"));
    assert.equal(remote.doc.querySelector("input[name=type][value=disable]"), null);
    assert.equal((await web.get("/admin/reports/12345")).status, 404);
  });

  it("assigns the report to the moderator and unassigns it", async () => {
    const page = await web.get(`/admin/reports/${reportId}`);
    const r = await web.submit(page, `/admin/reports/${reportId}/assign_to_self`);
    assert.equal(r.status, 303);
    const after = await web.follow(r);
    assert.equal(textOf(after.doc, "p.notice"), "The report is assigned to you.");
    assert.equal(textOf(after.doc, "dd.admin-report-assigned"), "@mona");
    assert.equal((await api(`/api/v1/admin/reports/${reportId}`)).body.assigned_account.id, mod.account.id);
    const list = await web.get("/admin/reports");
    assert.match(list.doc.querySelector(`tr[data-id="${reportId}"]`)?.text ?? "", /@mona/);
    assert.ok((await logs("Report")).some((e) => e.action === "assigned_to_self" && e.targetId === reportId));

    const un = await web.follow(await web.submit(after, `/admin/reports/${reportId}/unassign`));
    assert.equal(textOf(un.doc, "dd.admin-report-assigned"), "Nobody");
    assert.equal((await api(`/api/v1/admin/reports/${reportId}`)).body.assigned_account, null);
    assert.match(textOf(un.doc, "ol.admin-report-history"), /@mona took report/);
  });

  it("adds a note, logs it, and only its author may delete it", async () => {
    const page = await web.get(`/admin/reports/${reportId}`);
    const added = await web.follow(
      await web.submit(page, `/admin/reports/${reportId}/notes`, { content: "Looks like a spam wave" }),
    );
    assert.equal(textOf(added.doc, "p.notice"), "Note added.");
    assert.equal(textOf(added.doc, ".admin-report-note-text"), "Looks like a spam wave");
    const noteId = added.doc.querySelector("li.admin-report-note")?.getAttribute("data-id");
    assert.ok(noteId);
    const [entry] = await logs("ReportNote");
    assert.equal(entry.action, "create");
    assert.equal(entry.targetId, noteId);
    assert.equal(entry.accountId, mod.account.id);

    // Blank notes are refused.
    const blank = await web.submit(added, `/admin/reports/${reportId}/notes`, { content: "  " });
    assert.equal(blank.status, 422);
    assert.match(alertText(blank.doc) ?? "", /blank/);

    // Another moderator sees the note but cannot delete it.
    const other = await signIn(s, mod2);
    const seen = await other.get(`/admin/reports/${reportId}`);
    assert.equal(seen.doc.querySelector(`form[action="/admin/reports/${reportId}/notes/${noteId}/delete"]`), null);
    const csrf = seen.doc.querySelector("input[name=authenticity_token]")?.getAttribute("value") ?? "";
    const refused = await other.request(`/admin/reports/${reportId}/notes/${noteId}/delete`, {
      method: "POST",
      form: { authenticity_token: csrf },
    });
    assert.equal(refused.status, 403);

    const deleted = await web.follow(await web.submit(added, `/admin/reports/${reportId}/notes/${noteId}/delete`));
    assert.equal(textOf(deleted.doc, "p.notice"), "Note deleted.");
    assert.equal(deleted.doc.querySelector("li.admin-report-note"), null);
    assert.equal((await logs("ReportNote"))[0].action, "destroy");
  });

  it("resolves and reopens the report", async () => {
    const page = await web.get(`/admin/reports/${reportId}`);
    const resolved = await web.follow(await web.submit(page, `/admin/reports/${reportId}/resolve`));
    assert.equal(textOf(resolved.doc, "p.notice"), "The report is resolved.");
    assert.match(textOf(resolved.doc, "dd.admin-report-state"), /Resolved by @mona/);
    assert.equal((await api(`/api/v1/admin/reports/${reportId}`)).body.action_taken, true);
    assert.deepEqual(ids(await web.get("/admin/reports")), [remoteReportId]);
    assert.deepEqual(ids(await web.get("/admin/reports?resolved=1")), [reportId]);

    const reopened = await web.follow(await web.submit(resolved, `/admin/reports/${reportId}/reopen`));
    assert.equal(textOf(reopened.doc, "p.notice"), "The report is open again.");
    assert.equal((await api(`/api/v1/admin/reports/${reportId}`)).body.action_taken, false);
    const actions = (await logs("Report")).filter((e) => e.targetId === reportId).map((e) => e.action);
    assert.deepEqual(actions.slice(0, 2), ["reopen", "resolve"]);
  });

  it("acts with a warning: a strike with the preset and the text, logged, the report resolved, the user notified", async () => {
    const page = await web.get(`/admin/reports/${reportId}`);
    const options = page.doc.querySelectorAll("select[name=preset] option").map((o) => o.getAttribute("value"));
    assert.ok(options.includes("standard:spam"));
    const mails = s.ctx.mailer.recent.filter((m) => m.to === troll.user.email).length;
    const r = await web.submit(page, `/admin/reports/${reportId}/action`, {
      type: "none",
      preset: "standard:spam",
      text: "Last chance before a suspension.",
    });
    assert.equal(r.status, 303, r.body);
    const after = await web.follow(r);
    assert.equal(textOf(after.doc, "p.notice"), "Action taken; the report is resolved.");
    assert.equal((await api(`/api/v1/admin/reports/${reportId}`)).body.action_taken, true);

    const [warned] = await logs("AccountWarning");
    assert.equal(warned.action, "create");
    assert.equal(warned.accountId, mod.account.id);
    assert.equal(warned.summary, "@mona sent a warning to @troll");
    const resolvedLog = (await logs("Report")).find((e) => e.targetId === reportId);
    assert.equal(resolvedLog?.action, "resolve");
    assert.match(textOf(after.doc, "ol.admin-report-history"), /@mona sent a warning to @troll/);
    assert.match(textOf(after.doc, "ul.admin-report-warnings"), /Last chance before a suspension\./);

    await s.settle();
    const notes = await s.request("/api/v1/notifications", { token: troll.token });
    const warning = notes.body.find((n: { type: string }) => n.type === "moderation_warning");
    assert.ok(warning, JSON.stringify(notes.body));
    assert.equal(warning.moderation_warning.action, "none");
    assert.match(warning.moderation_warning.text, /spam/);
    assert.match(warning.moderation_warning.text, /Last chance before a suspension\./);
    // The mail box was checked by default.
    assert.equal(s.ctx.mailer.recent.filter((m) => m.to === troll.user.email).length, mails + 1);
  });

  it("suspends a remote account from its report without a mail; a bad action is refused", async () => {
    const page = await web.get(`/admin/reports/${remoteReportId}`);
    const bad = await web.submit(page, `/admin/reports/${remoteReportId}/action`, { type: "explode" });
    assert.equal(bad.status, 422);
    const r = await web.submit(page, `/admin/reports/${remoteReportId}/action`, { type: "silence" });
    assert.equal(r.status, 303, r.body);
    const account = await api(`/api/v1/admin/accounts/${remoteId}`);
    assert.equal(account.body.silenced, true);
    assert.ok((await logs("Account")).some((e) => e.action === "silence" && e.targetId === remoteId));
    assert.equal((await api(`/api/v1/admin/reports/${remoteReportId}`)).body.action_taken, true);
  });

  it("offers the server's warning presets, and keeps the act form from staff without Manage Users", async () => {
    const presetId = s.ctx.ids.next();
    await s.ctx.repos.accountWarnings.insertPreset(
      { id: presetId, title: "Server preset", text: "Text of the server's preset." },
      new Date().toISOString(),
    );
    const reopened = await web.follow(
      await web.submit(await web.get(`/admin/reports/${reportId}`), `/admin/reports/${reportId}/reopen`),
    );
    const option = reopened.doc.querySelector(`select[name=preset] option[value="server:${presetId}"]`);
    assert.equal(option?.text, "Server preset");
    const r = await web.submit(reopened, `/admin/reports/${reportId}/action`, {
      type: "sensitive",
      preset: `server:${presetId}`,
      text: "",
    });
    assert.equal(r.status, 303, r.body);
    await s.settle();
    const notes = await s.request("/api/v1/notifications", { token: troll.token });
    const newest = notes.body.find((n: { type: string }) => n.type === "moderation_warning");
    assert.equal(newest.moderation_warning.action, "sensitive");
    assert.equal(newest.moderation_warning.text, "Text of the server's preset.");
    assert.equal((await api(`/api/v1/admin/accounts/${troll.account.id}`)).body.sensitized, true);

    // A role with Manage Reports only: the report, but no act form, and the action refused.
    const now = new Date().toISOString();
    await s.ctx.repos.roles.insert({
      id: "78",
      name: "Triage",
      color: "",
      permissions: 0x10,
      position: 5,
      highlighted: false,
      created_at: now,
      updated_at: now,
    });
    s.ctx.roles.invalidate();
    const triager = await s.createUser("tina", { role: "Triage" });
    const tina = await signIn(s, triager);
    const page = await tina.get(`/admin/reports/${reportId}`);
    assert.equal(page.status, 200);
    assert.equal(page.doc.querySelector(`form[action="/admin/reports/${reportId}/action"]`), null);
    const csrf = page.doc.querySelector("input[name=authenticity_token]")?.getAttribute("value") ?? "";
    const refused = await tina.request(`/admin/reports/${reportId}/action`, {
      method: "POST",
      form: { authenticity_token: csrf, type: "suspend" },
    });
    assert.equal(refused.status, 403);
    assert.equal((await api(`/api/v1/admin/accounts/${troll.account.id}`)).body.suspended, false);
  });

  it("refuses a plain user (403) and a form with a bad CSRF token (422)", async () => {
    const user = await signIn(s, plain);
    assert.equal((await user.get("/admin/reports")).status, 403);
    assert.equal((await user.get(`/admin/reports/${reportId}`)).status, 403);
    const page = await user.get("/settings/profile");
    const csrf = page.doc.querySelector("input[name=authenticity_token]")?.getAttribute("value") ?? "";
    const post = await user.request(`/admin/reports/${reportId}/resolve`, {
      method: "POST",
      form: { authenticity_token: csrf },
    });
    assert.equal(post.status, 403);

    const forged = await web.request(`/admin/reports/${reportId}/reopen`, {
      method: "POST",
      form: { authenticity_token: "forged" },
    });
    assert.equal(forged.status, 422);
    assert.equal((await api(`/api/v1/admin/reports/${reportId}`)).body.action_taken, true);
    // Signed out: the sign-in form.
    const anon = await s.request("/admin/reports");
    assert.equal(anon.status, 302);
    assert.match(anon.headers.get("location") ?? "", /\/auth\/sign_in/);
  });
});
