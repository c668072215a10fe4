import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { notifyAdminReport } from "../../src/services/notifications/admin-report.ts";
import { inOneWindow } from "../helpers/rate-limits.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/** Waits until every queued job has run, none having died. */
const settled = (s: TestServer): Promise<void> => s.settle();

const REPORT_KEYS = [
  "id",
  "action_taken",
  "action_taken_at",
  "category",
  "comment",
  "forwarded",
  "created_at",
  "status_ids",
  "rule_ids",
  "target_account",
];

describe("POST /api/v1/reports and admin.report notifications", () => {
  let s: TestServer;
  let reporter: TestUser;
  let target: TestUser;
  let other: TestUser;
  let ruleA: string;
  let ruleB: string;

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id as string;
  };
  const report = (u: TestUser, json: unknown, token = u.token) =>
    s.request("/api/v1/reports", { token, json: json as Record<string, unknown> });
  const storedCount = async () => (await s.ctx.repos.reports.page({}, { limit: 1000 })).length;

  before(async () => {
    s = await startTestServer({});
    reporter = await s.createUser("rita");
    target = await s.createUser("troll");
    other = await s.createUser("otto");
    const at = new Date().toISOString();
    ruleA = s.ctx.ids.next();
    ruleB = s.ctx.ids.next();
    await s.ctx.repos.settings.addRule({ id: ruleA, text: "Be nice", hint: "", position: 1, at });
    await s.ctx.repos.settings.addRule({ id: ruleB, text: "No spam", hint: "", position: 2, at });
  });
  after(() => s.close());

  it("files a report with the target's visible statuses and answers the Report entity", async () => {
    const pub = await post(target, { status: "public nonsense" });
    const unlisted = await post(target, { status: "unlisted nonsense", visibility: "unlisted" });
    const r = await report(reporter, {
      account_id: target.account.id,
      status_ids: [pub, unlisted],
      comment: "please look",
      category: "spam",
      forward: true,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), REPORT_KEYS);
    assert.equal(r.body.action_taken, false);
    assert.equal(r.body.action_taken_at, null);
    assert.equal(r.body.category, "spam");
    assert.equal(r.body.comment, "please look");
    assert.equal(r.body.forwarded, false, "a local target: nothing to forward");
    assert.deepEqual(r.body.status_ids, [pub, unlisted]);
    assert.equal(r.body.rule_ids, null);
    assert.equal(r.body.target_account.id, target.account.id);
    assert.equal(r.body.target_account.username, "troll");
    assert.match(r.body.created_at, /^\d{4}-\d\d-\d\dT/);
    const stored = await s.ctx.repos.reports.getById(r.body.id);
    assert.equal(stored?.accountId, reporter.account.id);
    assert.equal(stored?.targetAccountId, target.account.id);
  });

  it("defaults to `other`, and to `violation` whenever rules are named (form parameters too)", async () => {
    const plain = await report(other, { account_id: target.account.id });
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.equal(plain.body.category, "other");
    assert.deepEqual(plain.body.status_ids, []);
    assert.equal(plain.body.comment, "");
    assert.equal(plain.body.rule_ids, null);

    const form = await s.request("/api/v1/reports", {
      token: other.token,
      form: { account_id: target.account.id, category: "spam", "rule_ids[]": [ruleA, ruleB] },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.equal(form.body.category, "violation");
    assert.deepEqual(form.body.rule_ids, [ruleA, ruleB]);
  });

  it("refuses bad input with a 4xx and stores nothing", async () => {
    const privatePost = await post(target, { status: "followers only", visibility: "private" });
    const direct = await post(target, { status: "secret", visibility: "direct" });
    const someoneElses = await post(other, { status: "not the target's" });
    const pending = await s.createUser("pending", { approved: false });
    const before = await storedCount();
    const cases: [unknown, number][] = [
      [{}, 404],
      [{ account_id: "" }, 404],
      [{ account_id: "nope" }, 404],
      [{ account_id: "999999999" }, 404],
      [{ account_id: pending.account.id }, 404],
      [{ account_id: reporter.account.id }, 422],
      [{ account_id: target.account.id, comment: "x".repeat(1001) }, 422],
      [{ account_id: target.account.id, comment: { a: 1 } }, 422],
      [{ account_id: target.account.id, category: "rude" }, 422],
      [{ account_id: target.account.id, rule_ids: ["123456"] }, 422],
      [{ account_id: target.account.id, rule_ids: [ruleA, "x"] }, 422],
      [{ account_id: target.account.id, status_ids: ["abc"] }, 404],
      [{ account_id: target.account.id, status_ids: ["999999999"] }, 404],
      [{ account_id: target.account.id, status_ids: [someoneElses] }, 404],
      // A private or direct post the reporter may not see cannot be attached (nor learnt of).
      [{ account_id: target.account.id, status_ids: [privatePost] }, 404],
      [{ account_id: target.account.id, status_ids: [direct] }, 404],
    ];
    for (const [body, status] of cases) {
      const r = await report(reporter, body);
      assert.equal(r.status, status, `${JSON.stringify(body)} -> ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(typeof r.body.error, "string");
    }
    const bad = await report(reporter, { account_id: target.account.id, comment: "x".repeat(1001) });
    assert.match(bad.body.error, /^Validation failed: Comment is too long/);
    // A comment of 1000 characters (not UTF-16 units) is fine.
    const emoji = await report(other, { account_id: target.account.id, comment: "🦆".repeat(1000) });
    assert.equal(emoji.status, 200, JSON.stringify(emoji.body));
    assert.equal(await storedCount(), before + 1);
  });

  it("attaches a private post the reporter may see (a follower), and a direct one they are mentioned in", async () => {
    await s.follow(reporter, target);
    const privatePost = await post(target, { status: "followers only", visibility: "private" });
    const direct = await post(target, { status: "@rita secret", visibility: "direct" });
    const r = await report(reporter, { account_id: target.account.id, status_ids: [privatePost, direct] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.status_ids, [privatePost, direct]);
    // Still not for someone else.
    const r2 = await report(other, { account_id: target.account.id, status_ids: [privatePost] });
    assert.equal(r2.status, 404);
  });

  it("a report of a reporter the target blocks cannot attach the target's posts; the reporter's own block does not matter", async () => {
    const blocker = await s.createUser("blocker");
    const pub = await post(blocker, { status: "hello" });
    const blocked = await s.createUser("blockee");
    assert.equal(
      (await s.request(`/api/v1/accounts/${blocked.account.id}/block`, { method: "POST", token: blocker.token }))
        .status,
      200,
    );
    assert.equal((await report(blocked, { account_id: blocker.account.id, status_ids: [pub] })).status, 404);
    assert.equal((await report(blocked, { account_id: blocker.account.id })).status, 200);
    // Blocking the one you report is common; their posts still count.
    const pub2 = await post(target, { status: "more nonsense" });
    assert.equal(
      (await s.request(`/api/v1/accounts/${target.account.id}/block`, { method: "POST", token: other.token })).status,
      200,
    );
    assert.equal((await report(other, { account_id: target.account.id, status_ids: [pub2] })).status, 200);
  });

  it("checks the token: 401 without, 403 without write:reports, 422 for an app token", async () => {
    const body = { account_id: target.account.id };
    const before = await storedCount();
    assert.equal((await s.request("/api/v1/reports", { json: body })).status, 401);
    const readOnly = await s.createUser("reader", { scopes: "read" });
    assert.equal((await report(readOnly, body)).status, 403);
    const writeStatuses = await s.createUser("poster", { scopes: "write:statuses" });
    assert.equal((await report(writeStatuses, body)).status, 403);
    const app = await s.appToken("write");
    assert.equal((await report(reporter, body, app)).status, 422);
    assert.equal(await storedCount(), before);
    const narrow = await s.createUser("narrow", { scopes: "write:reports" });
    assert.equal((await report(narrow, body)).status, 200);
    const broad = await s.createUser("broad", { scopes: "write" });
    assert.equal((await report(broad, body)).status, 200);
  });

  it("is throttled to 400 reports a day per user, as Mastodon's `reports` family", async () => {
    await inOneWindow(86_400_000);
    const busy = await s.createUser("busy");
    const headers = { "x-forwarded-for": "203.0.113.77" };
    const first = await s.request("/api/v1/reports", {
      token: busy.token,
      headers,
      json: { account_id: target.account.id },
    });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("x-ratelimit-limit"), "400");
    assert.equal(first.headers.get("x-ratelimit-remaining"), "399");
    for (let i = 1; i < 400; i++) await s.ctx.rateLimits.hit(`reports:user:${busy.user.id}`, 86_400_000);
    const before = await storedCount();
    const over = await s.request("/api/v1/reports", {
      token: busy.token,
      headers,
      json: { account_id: target.account.id },
    });
    assert.equal(over.status, 429);
    assert.equal(await storedCount(), before);
  });
});

describe("admin.report notifications", () => {
  let s: TestServer;
  let admin: TestUser;
  let moderator: TestUser;
  let userManager: TestUser;
  let plain: TestUser;
  let reporter: TestUser;

  const notificationsOf = async (u: TestUser) => {
    await settled(s);
    const r = await s.request("/api/v1/notifications", { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (r.body as any[]).filter((n) => n.type === "admin.report");
  };

  before(async () => {
    s = await startTestServer({});
    // A role that may manage users but not reports.
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
    admin = await s.createUser("ada", { role: "Admin" });
    moderator = await s.createUser("mo", { role: "Moderator" });
    userManager = await s.createUser("greta", { role: "Greeter" });
    plain = await s.createUser("pat");
    reporter = await s.createUser("rita");
  });
  after(() => s.close());

  it("tells staff who may manage reports, from the reporter, with the Report, in v1 and v2", async () => {
    const target = await s.createUser("troll");
    const postR = await s.request("/api/v1/statuses", { token: target.token, json: { status: "nonsense" } });
    const r = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: target.account.id, status_ids: [postR.body.id], comment: "look" },
    });
    assert.equal(r.status, 200);
    for (const staff of [admin, moderator]) {
      const [n, ...rest] = await notificationsOf(staff);
      assert.equal(rest.length, 0);
      assert.deepEqual(Object.keys(n), ["id", "type", "group_key", "created_at", "account", "report"]);
      assert.equal(n.account.id, reporter.account.id);
      assert.match(n.group_key, /^ungrouped-\d+$/);
      assert.deepEqual(n.report, r.body);
      const one = await s.request(`/api/v1/notifications/${n.id}`, { token: staff.token });
      assert.equal(one.body.report.id, r.body.id);
    }
    assert.deepEqual(await notificationsOf(userManager), [], "managing users is not managing reports");
    assert.deepEqual(await notificationsOf(plain), []);
    assert.deepEqual(await notificationsOf(reporter), []);
    assert.deepEqual(await notificationsOf(target), []);

    const v2 = await s.request("/api/v2/notifications", { token: moderator.token });
    assert.equal(v2.status, 200);
    const [g] = v2.body.notification_groups;
    assert.equal(g.type, "admin.report");
    assert.deepEqual(g.sample_account_ids, [reporter.account.id]);
    assert.equal(g.status_id, undefined);
    assert.deepEqual(g.report, r.body);
    assert.deepEqual(
      v2.body.accounts.map((a: any) => a.id),
      [reporter.account.id],
    );
    const one = await s.request(`/api/v2/notifications/${g.group_key}`, { token: moderator.token });
    assert.equal(one.status, 200);
    assert.equal(one.body.notification_groups[0].report.id, r.body.id);
    // Asking for reports to be grouped changes nothing: each is its own group.
    const grouped = await s.request("/api/v2/notifications?grouped_types[]=admin.report", { token: moderator.token });
    assert.equal(grouped.body.notification_groups[0].report.id, r.body.id);
  });

  it("notifies once when the job runs again, and not the reporter when they are staff", async () => {
    const target = await s.createUser("spammer");
    const r = await s.request("/api/v1/reports", { token: moderator.token, json: { account_id: target.account.id } });
    assert.equal(r.status, 200);
    await settled(s);
    await notifyAdminReport(s.ctx, { reportId: r.body.id });
    const forAdmin = (await notificationsOf(admin)).filter((n) => n.report.id === r.body.id);
    assert.equal(forAdmin.length, 1);
    assert.equal(forAdmin[0].account.id, moderator.account.id);
    assert.deepEqual(
      (await notificationsOf(moderator)).filter((n) => n.report.id === r.body.id),
      [],
    );
  });

  it("does not notify again while an older report about the same account is unresolved", async () => {
    const target = await s.createUser("repeat");
    const first = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: target.account.id },
    });
    const second = await s.request("/api/v1/reports", { token: plain.token, json: { account_id: target.account.id } });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    const ids = (await notificationsOf(admin)).map((n) => n.report.id);
    assert.ok(ids.includes(first.body.id));
    assert.ok(!ids.includes(second.body.id));
  });
});
