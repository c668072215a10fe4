import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

describe("Admin API: account actions, warnings and their undoing", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;
  let reporter: TestUser;

  const act = (by: TestUser | undefined, id: string, json: Record<string, unknown>) =>
    s.request(`/api/v1/admin/accounts/${id}/action`, { method: "POST", token: by?.token, json });
  const post = (by: TestUser | undefined, path: string) =>
    s.request(path, { method: "POST", token: by?.token, json: {} });
  const logsOf = (targetId: string) => s.ctx.repos.adminActionLogs.page({ targetId }, { limit: 20 });
  const account = async (id: string) => {
    const a = await s.ctx.repos.accounts.getById(id);
    assert.ok(a);
    return a;
  };

  before(async () => {
    s = await startTestServer({});
    owner = await s.createUser("own", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adm", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mo", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pat", { scopes: ADMIN_SCOPES });
    reporter = await s.createUser("rita");
  });
  after(() => s.close());

  it("is refused without a token, without a staff role, and to a moderator acting on an admin", async () => {
    const target = await s.createUser("perm1");
    assert.equal((await act(undefined, target.account.id, { type: "silence" })).status, 401);
    assert.equal((await act(plain, target.account.id, { type: "silence" })).status, 403);
    // A token without the admin scope.
    assert.equal((await act(target, target.account.id, { type: "silence" })).status, 403);
    assert.equal((await act(moderator, admin.account.id, { type: "silence" })).status, 403);
    assert.equal((await act(admin, owner.account.id, { type: "suspend" })).status, 403);
    assert.equal((await act(admin, admin.account.id, { type: "suspend" })).status, 403);
    assert.equal((await account(target.account.id)).silencedAt, null);
    assert.equal((await account(admin.account.id)).silencedAt, null);
    assert.equal((await account(owner.account.id)).suspendedAt, null);
    for (const path of ["unsilence", "unsensitive", "unsuspend"]) {
      assert.equal((await post(undefined, `/api/v1/admin/accounts/${target.account.id}/${path}`)).status, 401);
      assert.equal((await post(plain, `/api/v1/admin/accounts/${target.account.id}/${path}`)).status, 403);
    }
    assert.deepEqual(await logsOf(target.account.id), []);
  });

  it("refuses bad input with a 4xx and changes nothing", async () => {
    const target = await s.createUser("bad1");
    const cases: [Record<string, unknown>, number][] = [
      [{ type: "obliterate" }, 422],
      [{}, 422],
      [{ type: ["suspend"] }, 422],
      [{ type: "suspend", warning_preset_id: "999999" }, 404],
      [{ type: "suspend", warning_preset_id: "nope" }, 404],
      [{ type: "suspend", report_id: "999999" }, 404],
      [{ type: "silence", text: "x".repeat(5001) }, 422],
    ];
    for (const [json, status] of cases) {
      const r = await act(owner, target.account.id, json);
      assert.equal(r.status, status, JSON.stringify(json));
      assert.equal(typeof r.body.error, "string");
    }
    assert.equal((await act(owner, "999999999", { type: "silence" })).status, 404);
    assert.equal((await act(owner, "x", { type: "silence" })).status, 404);
    const a = await account(target.account.id);
    assert.equal(a.suspendedAt, null);
    assert.equal(a.silencedAt, null);
    assert.deepEqual(await s.ctx.repos.accountWarnings.ofTarget(target.account.id), []);
    assert.deepEqual(await logsOf(target.account.id), []);
  });

  it("sensitive and unsensitive", async () => {
    const target = await s.createUser("sens1");
    const r = await act(moderator, target.account.id, { type: "sensitive" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, {});
    assert.notEqual((await account(target.account.id)).sensitizedAt, null);
    const [w] = await s.ctx.repos.accountWarnings.ofTarget(target.account.id);
    assert.equal(w.action, "sensitive");
    assert.equal(w.accountId, moderator.account.id);
    const logs = await logsOf(target.account.id);
    assert.deepEqual(
      logs.map((l) => [l.action, l.targetType, l.accountId]),
      [["sensitive", "Account", moderator.account.id]],
    );
    assert.equal(logs[0].summary, "@mo marked the media of @sens1 as sensitive");
    const u = await post(moderator, `/api/v1/admin/accounts/${target.account.id}/unsensitive`);
    assert.equal(u.status, 200);
    assert.equal(u.body.id, target.account.id);
    assert.equal(u.body.sensitized, false);
    assert.equal(u.body.username, "sens1");
    assert.equal((await account(target.account.id)).sensitizedAt, null);
    assert.equal((await logsOf(target.account.id))[0].action, "unsensitive");
  });

  it("silence and unsilence", async () => {
    const target = await s.createUser("sil1");
    assert.equal((await act(admin, target.account.id, { type: "silence" })).status, 200);
    assert.notEqual((await account(target.account.id)).silencedAt, null);
    // The user can still use the account and sees the warning.
    const me = await s.request("/api/v1/accounts/verify_credentials", { token: target.token });
    assert.equal(me.status, 200);
    const u = await post(admin, `/api/v1/admin/accounts/${target.account.id}/unsilence`);
    assert.equal(u.status, 200);
    assert.equal(u.body.silenced, false);
    assert.equal((await account(target.account.id)).silencedAt, null);
    assert.deepEqual(
      (await logsOf(target.account.id)).map((l) => l.action),
      ["unsilence", "silence"],
    );
  });

  it("disable turns the login off (logged against the User); a remote account cannot be disabled", async () => {
    const target = await s.createUser("dis1");
    assert.equal((await act(owner, target.account.id, { type: "disable" })).status, 200);
    assert.equal((await s.ctx.repos.users.getById(target.user.id))?.disabled, true);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: target.token })).status, 403);
    const [log] = await logsOf(target.user.id);
    assert.equal(log.action, "disable");
    assert.equal(log.targetType, "User");
    const remoteId = s.ctx.ids.next();
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
    const r = await act(owner, remoteId, { type: "disable" });
    assert.equal(r.status, 422);
    assert.deepEqual(await s.ctx.repos.accountWarnings.ofTarget(remoteId), []);
    // Silencing a remote account works (no notification, no mail: it has no user here).
    const mails = s.ctx.mailer.recent.length;
    assert.equal((await act(owner, remoteId, { type: "silence", text: "quiet" })).status, 200);
    assert.notEqual((await account(remoteId)).silencedAt, null);
    assert.equal(s.ctx.mailer.recent.length, mails);
  });

  it("a warning is a moderation_warning notification (v1 and v2) and a mail", async () => {
    const target = await s.createUser("warn1");
    const presetId = s.ctx.ids.next();
    await s.ctx.repos.accountWarnings.insertPreset(
      { id: presetId, title: "Spam", text: "Please stop posting spam." },
      new Date().toISOString(),
    );
    const r = await act(moderator, target.account.id, {
      type: "none",
      warning_preset_id: presetId,
      text: "Last chance.",
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const [w] = await s.ctx.repos.accountWarnings.ofTarget(target.account.id);
    assert.equal(w.action, "none");
    assert.equal(w.text, "Please stop posting spam.\n\nLast chance.");
    // A warning with words is logged (Mastodon's `create` of an AccountWarning).
    const logs = await s.ctx.repos.adminActionLogs.page({ targetType: "AccountWarning", targetId: w.id }, { limit: 5 });
    assert.equal(logs.length, 1);
    assert.equal(logs[0].action, "create");
    assert.equal(logs[0].summary, "@mo sent a warning to @warn1");

    const v1 = await s.request("/api/v1/notifications", { token: target.token });
    assert.equal(v1.status, 200);
    const n = v1.body.find((x: { type: string }) => x.type === "moderation_warning");
    assert.ok(n, JSON.stringify(v1.body));
    assert.equal(n.account.id, target.account.id);
    assert.equal(n.moderation_warning.id, w.id);
    assert.equal(n.moderation_warning.action, "none");
    assert.equal(n.moderation_warning.text, "Please stop posting spam.\n\nLast chance.");
    assert.deepEqual(n.moderation_warning.status_ids, []);
    assert.equal(n.moderation_warning.appeal, null);
    assert.equal(n.moderation_warning.target_account.id, target.account.id);
    assert.equal(typeof n.moderation_warning.created_at, "string");
    const filtered = await s.request("/api/v1/notifications?types[]=moderation_warning", { token: target.token });
    assert.deepEqual(
      filtered.body.map((x: { id: string }) => x.id),
      [n.id],
    );

    const v2 = await s.request("/api/v2/notifications", { token: target.token });
    assert.equal(v2.status, 200);
    const g = v2.body.notification_groups.find((x: { type: string }) => x.type === "moderation_warning");
    assert.ok(g, JSON.stringify(v2.body));
    assert.equal(g.notifications_count, 1);
    assert.equal(g.moderation_warning.id, w.id);
    assert.equal(g.moderation_warning.target_account.id, target.account.id);

    const mail = s.ctx.mailer.recent.findLast((m) => m.to === target.user.email);
    assert.ok(mail);
    assert.match(mail.subject, /Warning for warn1@/);
    assert.match(mail.text, /Last chance\./);
  });

  it("send_email_notification=false: the notification without the mail", async () => {
    const target = await s.createUser("warn2");
    assert.equal(
      (await act(owner, target.account.id, { type: "silence", text: "calm down", send_email_notification: false }))
        .status,
      200,
    );
    assert.equal(
      s.ctx.mailer.recent.some((m) => m.to === target.user.email),
      false,
    );
    const v1 = await s.request("/api/v1/notifications?types[]=moderation_warning", { token: target.token });
    assert.equal(v1.body.length, 1);
    assert.equal(v1.body[0].moderation_warning.action, "silence");
    // Other users see nothing of it.
    const other = await s.request("/api/v1/notifications?types[]=moderation_warning", { token: reporter.token });
    assert.deepEqual(other.body, []);
  });

  it("resolves the report acted on (none) or every open report (other types), linking the warning", async () => {
    const target = await s.createUser("rep1");
    const p = await s.request("/api/v1/statuses", { token: target.token, json: { status: "spam spam" } });
    const file = async (comment: string) => {
      const r = await s.request("/api/v1/reports", {
        token: reporter.token,
        json: { account_id: target.account.id, status_ids: [p.body.id], comment },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.id as string;
    };
    const first = await file("one");
    const second = await file("two");
    const third = await file("three");
    assert.equal((await act(moderator, target.account.id, { type: "none", report_id: first })).status, 200);
    assert.notEqual((await s.ctx.repos.reports.getById(first))?.actionTakenAt, null);
    assert.equal((await s.ctx.repos.reports.getById(second))?.actionTakenAt, null);
    const [w1] = await s.ctx.repos.accountWarnings.ofTarget(target.account.id);
    assert.equal(w1.reportId, first);
    assert.deepEqual(w1.statusIds, [p.body.id]);

    assert.equal((await act(moderator, target.account.id, { type: "silence", report_id: second })).status, 200);
    for (const id of [second, third]) {
      const report = await s.ctx.repos.reports.getById(id);
      assert.notEqual(report?.actionTakenAt, null);
      assert.equal(report?.actionTakenByAccountId, moderator.account.id);
    }
    const resolved = await s.ctx.repos.adminActionLogs.page({ targetType: "Report" }, { limit: 20 });
    assert.deepEqual(
      new Set(resolved.filter((l) => [first, second, third].includes(l.targetId ?? "")).map((l) => l.targetId)),
      new Set([first, second, third]),
    );
    assert.ok(resolved.every((l) => l.action === "resolve"));
    const admin = await s.request(`/api/v1/admin/reports/${third}`, { token: moderator.token });
    assert.equal(admin.body.action_taken, true);
  });

  it("a role with Manage Users but not Manage Reports cannot resolve reports through an action", async () => {
    await s.ctx.repos.roles.insert({
      id: "78",
      name: "Greeter",
      color: "",
      permissions: 0x400,
      position: 5,
      highlighted: false,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    s.ctx.roles.invalidate();
    const greeter = await s.createUser("greta", { role: "Greeter", scopes: ADMIN_SCOPES });
    const target = await s.createUser("rep2");
    const r = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: target.account.id, comment: "meh" },
    });
    assert.equal((await act(greeter, target.account.id, { type: "silence" })).status, 403);
    assert.equal((await account(target.account.id)).silencedAt, null);
    assert.equal((await s.ctx.repos.reports.getById(r.body.id))?.actionTakenAt, null);
    assert.deepEqual(await s.ctx.repos.accountWarnings.ofTarget(target.account.id), []);
    // Without open reports it may.
    const calm = await s.createUser("rep3");
    assert.equal((await act(greeter, calm.account.id, { type: "silence" })).status, 200);
  });
});
