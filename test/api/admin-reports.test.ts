import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

const ADMIN_REPORT_KEYS = [
  "id",
  "action_taken",
  "action_taken_at",
  "category",
  "comment",
  "forwarded",
  "created_at",
  "updated_at",
  "account",
  "target_account",
  "assigned_account",
  "action_taken_by_account",
  "statuses",
  "rules",
];

describe("Admin API: reports", () => {
  let s: TestServer;
  let moderator: TestUser;
  let owner: TestUser;
  let userManager: TestUser;
  let plain: TestUser;
  let reporter: TestUser;
  let target: TestUser;
  let ruleA: string;
  let privatePost: string;
  let reportId: string;

  const req = (u: TestUser, path: string, method = "GET", json?: Record<string, unknown>) =>
    s.request(path, { method, token: u.token, json: json ?? (method === "GET" ? undefined : {}) });

  before(async () => {
    s = await startTestServer({});
    await s.ctx.repos.roles.insert({
      id: "77",
      name: "Greeter",
      color: "",
      permissions: 0x400,
      position: 5,
      highlighted: false,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    s.ctx.roles.invalidate();
    moderator = await s.createUser("mo", { role: "Moderator", scopes: ADMIN_SCOPES });
    owner = await s.createUser("own", { role: "Owner", scopes: ADMIN_SCOPES });
    userManager = await s.createUser("greta", { role: "Greeter", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pat", { scopes: ADMIN_SCOPES });
    reporter = await s.createUser("rita");
    target = await s.createUser("troll");
    ruleA = s.ctx.ids.next();
    await s.ctx.repos.settings.addRule({
      id: ruleA,
      text: "Be nice",
      hint: "",
      position: 1,
      at: new Date().toISOString(),
    });
    await s.follow(reporter, target);
    const p = await s.request("/api/v1/statuses", {
      token: target.token,
      json: { status: "followers only nonsense", visibility: "private" },
    });
    privatePost = p.body.id;
    const r = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: target.account.id, status_ids: [privatePost], rule_ids: [ruleA], comment: "bad" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    reportId = r.body.id;
  });
  after(() => s.close());

  it("shows a report as Admin::Report, with Admin::Accounts, the reported statuses and the rules", async () => {
    const r = await req(moderator, `/api/v1/admin/reports/${reportId}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), ADMIN_REPORT_KEYS);
    assert.equal(r.body.category, "violation");
    assert.equal(r.body.comment, "bad");
    assert.equal(r.body.action_taken, false);
    assert.equal(r.body.assigned_account, null);
    assert.equal(r.body.action_taken_by_account, null);
    assert.equal(r.body.account.id, reporter.account.id);
    assert.equal(r.body.account.username, "rita");
    assert.equal(r.body.account.email, reporter.user.email);
    assert.equal(r.body.account.account.id, reporter.account.id);
    assert.equal(r.body.account.confirmed, true);
    assert.equal(r.body.account.domain, null);
    assert.equal(typeof r.body.account.role, "object");
    assert.equal(r.body.target_account.id, target.account.id);
    // Staff see the private post that was reported.
    assert.deepEqual(
      r.body.statuses.map((x: any) => x.id),
      [privatePost],
    );
    assert.deepEqual(r.body.rules, [{ id: ruleA, text: "Be nice", hint: "", translations: {} }]);
  });

  it("requires manage_reports and the admin report scopes", async () => {
    const path = `/api/v1/admin/reports/${reportId}`;
    assert.equal((await req(owner, path)).status, 200);
    for (const u of [userManager, plain]) {
      const r = await req(u, path);
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, { error: "This action is not allowed" });
      assert.equal((await req(u, "/api/v1/admin/reports")).status, 403);
      assert.equal((await req(u, `${path}/resolve`, "POST")).status, 403);
    }
    assert.equal((await s.request(path)).status, 401);
    const readOnly = await s.createUser("mod2", { role: "Moderator", scopes: "admin:read:reports" });
    assert.equal((await req(readOnly, path)).status, 200);
    assert.equal((await req(readOnly, `${path}/assign_to_self`, "POST")).status, 403);
    const wrongFamily = await s.createUser("mod3", { role: "Moderator", scopes: "admin:read:accounts read" });
    assert.equal((await req(wrongFamily, path)).status, 403);
    assert.equal((await req(moderator, "/api/v1/admin/reports/999999999")).status, 404);
    assert.equal((await req(moderator, "/api/v1/admin/reports/999999999/resolve", "POST")).status, 404);
    // Nothing changed by the refused calls.
    assert.equal((await s.ctx.repos.reports.getById(reportId))?.actionTakenAt, null);
  });

  it("assigns, unassigns, resolves and reopens (each twice)", async () => {
    const base = `/api/v1/admin/reports/${reportId}`;
    for (let i = 0; i < 2; i++) {
      const a = await req(moderator, `${base}/assign_to_self`, "POST");
      assert.equal(a.status, 200);
      assert.equal(a.body.assigned_account.id, moderator.account.id);
    }
    for (let i = 0; i < 2; i++) {
      const u = await req(moderator, `${base}/unassign`, "POST");
      assert.equal(u.status, 200);
      assert.equal(u.body.assigned_account, null);
    }
    for (let i = 0; i < 2; i++) {
      const r = await req(owner, `${base}/resolve`, "POST");
      assert.equal(r.status, 200);
      assert.equal(r.body.action_taken, true);
      assert.match(r.body.action_taken_at, /^\d{4}-/);
      assert.equal(r.body.action_taken_by_account.id, owner.account.id);
    }
    // The reporter's view follows.
    const report = await s.ctx.repos.reports.getById(reportId);
    assert.ok(report?.actionTakenAt);
    for (let i = 0; i < 2; i++) {
      const o = await req(moderator, `${base}/reopen`, "POST");
      assert.equal(o.status, 200);
      assert.equal(o.body.action_taken, false);
      assert.equal(o.body.action_taken_at, null);
      assert.equal(o.body.action_taken_by_account, null);
    }
  });

  it("changes the category and rules, as Mastodon validates them", async () => {
    const path = `/api/v1/admin/reports/${reportId}`;
    const bad: [Record<string, unknown>, number][] = [
      [{ category: "rude" }, 422],
      [{ rule_ids: ["123"] }, 422],
      [{ category: "spam", rule_ids: [ruleA] }, 422],
    ];
    for (const [body, status] of bad) {
      const r = await req(moderator, path, "PUT", body);
      assert.equal(r.status, status, JSON.stringify(body));
    }
    let stored = await s.ctx.repos.reports.getById(reportId);
    assert.equal(stored?.category, "violation");
    assert.deepEqual(stored?.ruleIds, [ruleA]);

    const spam = await req(moderator, path, "PUT", { category: "spam" });
    assert.equal(spam.status, 200);
    assert.equal(spam.body.category, "spam");
    assert.deepEqual(spam.body.rules, [], "leaving `violation` drops the rules");
    const back = await req(moderator, path, "PUT", { category: "violation", rule_ids: [ruleA] });
    assert.equal(back.status, 200);
    assert.equal(back.body.category, "violation");
    assert.equal(back.body.rules[0].id, ruleA);
    stored = await s.ctx.repos.reports.getById(reportId);
    assert.deepEqual(stored?.ruleIds, [ruleA]);
    const same = await req(moderator, path, "PUT", {});
    assert.equal(same.status, 200);
    assert.equal(same.body.category, "violation");
  });

  it("lists unresolved reports by default, resolved ones with `resolved`, filtered by account, with Link", async () => {
    const other = await s.createUser("otto");
    const second = await s.request("/api/v1/reports", {
      token: other.token,
      json: { account_id: reporter.account.id },
    });
    const third = await s.request("/api/v1/reports", { token: other.token, json: { account_id: target.account.id } });
    await req(moderator, `/api/v1/admin/reports/${third.body.id}/resolve`, "POST");
    const ids = async (q: string) => {
      const r = await req(moderator, `/api/v1/admin/reports${q}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.map((x: any) => x.id);
    };
    assert.deepEqual(await ids(""), [second.body.id, reportId]);
    assert.deepEqual(await ids("?resolved=true"), [third.body.id]);
    assert.deepEqual(await ids("?resolved=false"), [second.body.id, reportId]);
    assert.deepEqual(await ids(`?account_id=${other.account.id}`), [second.body.id]);
    assert.deepEqual(await ids(`?target_account_id=${target.account.id}`), [reportId]);
    assert.deepEqual(await ids(`?target_account_id=${target.account.id}&resolved=1`), [third.body.id]);
    assert.deepEqual(await ids("?account_id=nope"), []);
    const page = await req(moderator, "/api/v1/admin/reports?limit=1");
    assert.deepEqual(
      page.body.map((x: any) => x.id),
      [second.body.id],
    );
    assert.match(page.headers.get("link") ?? "", new RegExp(`max_id=${second.body.id}.*rel="next"`));
    const next = await req(moderator, `/api/v1/admin/reports?limit=1&max_id=${second.body.id}`);
    assert.deepEqual(
      next.body.map((x: any) => x.id),
      [reportId],
    );
  });

  it("works with the masto client: file a report, list, assign and resolve it", async () => {
    const client = createRestAPIClient({ url: s.url, accessToken: reporter.token });
    const troll2 = await s.createUser("troll2");
    const filed = await client.v1.reports.create({
      accountId: troll2.account.id,
      comment: "via masto",
      category: "spam",
    });
    assert.equal(filed.category, "spam");
    assert.equal(filed.targetAccount.id, troll2.account.id);
    const staff = createRestAPIClient({ url: s.url, accessToken: moderator.token });
    const listed = await staff.v1.admin.reports.list();
    const mine = listed.find((r) => r.id === filed.id);
    assert.ok(mine);
    assert.equal(mine.account.id, reporter.account.id);
    assert.equal(
      (await staff.v1.admin.reports.$select(filed.id).assignToSelf()).assignedAccount?.id,
      moderator.account.id,
    );
    const resolved = await staff.v1.admin.reports.$select(filed.id).resolve();
    assert.equal(resolved.actionTaken, true);
  });
});
