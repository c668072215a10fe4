import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { signIn, textOf, type WebClient } from "../helpers/web.ts";

const UNHANDLED = "test.nobody-handles-this";
const ADMIN_SCOPES = "read write follow push profile admin:read admin:write";

/** The moderation panel's dashboard, job queue and audit log pages (docs/web-admin-dashboard.md). */
describe("moderation panel: dashboard, jobs, audit log", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let alice: TestUser;
  let adminWeb: WebClient;
  let modWeb: WebClient;
  let aliceWeb: WebClient;

  before(async () => {
    s = await startTestServer();
    owner = await s.createUser("olga", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adele", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("maud", { role: "Moderator" });
    alice = await s.createUser("alice");
    const bob = await s.createUser("bob");
    // Two sign-ups waiting for approval.
    await s.createUser("pending1", { approved: false });
    await s.createUser("pending2", { approved: false });
    // Three reports, one of them resolved through the admin API.
    for (const [by, target] of [
      [alice, bob],
      [bob, alice],
      [alice, moderator],
    ] as const) {
      const r = await s.request("/api/v1/reports", {
        method: "POST",
        token: by.token,
        json: { account_id: target.account.id, comment: "spam" },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const list = await s.request("/api/v1/admin/reports", { token: admin.token });
    assert.equal(list.status, 200);
    const resolved = await s.request(`/api/v1/admin/reports/${list.body[0].id}/resolve`, {
      method: "POST",
      token: admin.token,
    });
    assert.equal(resolved.status, 200);
    await s.settle();
    [adminWeb, modWeb, aliceWeb] = await Promise.all([signIn(s, admin), signIn(s, moderator), signIn(s, alice)]);
  });

  after(async () => {
    await s?.close();
  });

  const measureValue = (page: { doc: import("node-html-parser").HTMLElement }, key: string) =>
    textOf(page.doc, `li.measure[data-key="${key}"] .value`);

  it("/admin sends each staff member to the first page their role opens; others get 403", async () => {
    for (const web of [adminWeb, modWeb]) {
      const r = await web.get("/admin");
      assert.equal(r.status, 302);
      assert.equal(r.headers.get("location"), "/admin/dashboard");
    }
    assert.equal((await aliceWeb.get("/admin")).status, 403);
    // A role that grants only the audit log starts there.
    const role = await s.request("/api/v1/admin/roles", {
      method: "POST",
      token: owner.token,
      json: { name: "Auditor", permissions: "4" },
    });
    assert.equal(role.status, 200, JSON.stringify(role.body));
    const auditor = await s.createUser("audrey", { role: "Auditor" });
    const r = await (await signIn(s, auditor)).get("/admin");
    assert.equal(r.status, 302);
    assert.equal(r.headers.get("location"), "/admin/action_logs");
  });

  it("shows an admin the measures, dimensions and what needs attention, with real numbers", async () => {
    const page = await adminWeb.get("/admin/dashboard");
    assert.equal(page.status, 200, page.body);
    // The same figures as the admin API's measures over the same days.
    const today = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const api = await s.request("/api/v1/admin/measures", {
      method: "POST",
      token: admin.token,
      json: {
        keys: ["active_users", "new_users", "interactions", "opened_reports", "resolved_reports"],
        start_at: start,
        end_at: today,
      },
    });
    assert.equal(api.status, 200);
    for (const m of api.body) assert.equal(measureValue(page, m.key), Number(m.total).toLocaleString("en"), m.key);
    assert.equal(measureValue(page, "new_users"), "8");
    assert.equal(measureValue(page, "opened_reports"), "3");
    assert.equal(measureValue(page, "resolved_reports"), "1");
    // One bar per day, today's bar drawn, each with its day and value.
    const bars = page.doc.querySelectorAll(`li.measure[data-key="opened_reports"] svg rect`);
    assert.equal(bars.length, 30);
    assert.equal(bars.at(-1)?.querySelector("title")?.text, `${today}: 3`);
    assert.equal(page.doc.querySelector("svg[style], [style]"), null);
    // What needs attention, linked to the pages that handle it.
    const card = (href: string) => page.doc.querySelector(`#attention a[href="${href}"]`)?.text.replace(/\s+/g, " ");
    assert.match(card("/admin/accounts?status=pending") ?? "", /^2 Sign-ups waiting/);
    assert.match(card("/admin/reports") ?? "", /^2 Open reports/);
    assert.match(card("/admin/jobs") ?? "", /^0 Failing deliveries/);
    // The dimensions as tables.
    const software = textOf(page.doc, '.dash-dimension[data-key="software_versions"]');
    assert.match(software, /Gannet/);
    assert.match(software, /Node\.js/);
    assert.match(textOf(page.doc, '.dash-dimension[data-key="space_usage"]'), /Media storage/);
    assert.ok(page.doc.querySelector('.dash-dimension[data-key="servers"]'));
    assert.ok(page.doc.querySelector('.dash-dimension[data-key="languages"]'));
  });

  it("takes a range of days, and falls back to 30 days on dates it cannot read", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const week = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    const page = await adminWeb.get(`/admin/dashboard?start_at=${week}&end_at=${today}`);
    assert.equal(page.status, 200);
    assert.equal(page.doc.querySelectorAll(`li.measure[data-key="new_users"] svg rect`).length, 7);
    assert.equal(measureValue(page, "new_users"), "8");
    const old = await adminWeb.get("/admin/dashboard?start_at=2001-01-01&end_at=2001-01-31");
    assert.equal(measureValue(old, "new_users"), "0");
    const bad = await adminWeb.get("/admin/dashboard?start_at=2001-02-31&end_at=yesterday");
    assert.equal(bad.status, 200);
    assert.match(bad.doc.querySelector('[role="alert"]')?.text ?? "", /last 30 days/);
    assert.equal(bad.doc.querySelectorAll(`li.measure[data-key="new_users"] svg rect`).length, 30);
  });

  it("lets a moderator see the dashboard but not the job queue (no DevOps); a user gets 403, a visitor the sign-in", async () => {
    const dash = await modWeb.get("/admin/dashboard");
    assert.equal(dash.status, 200);
    assert.equal(measureValue(dash, "opened_reports"), "3");
    // The menu and the cards offer nothing the role cannot open.
    assert.equal(dash.doc.querySelector('a[href="/admin/jobs"]'), null);
    assert.ok(dash.doc.querySelector('#attention a[href="/admin/reports"]'));
    assert.equal((await modWeb.get("/admin/jobs")).status, 403);
    assert.equal((await modWeb.get("/admin/action_logs")).status, 200);
    for (const path of ["/admin/dashboard", "/admin/jobs", "/admin/action_logs"]) {
      assert.equal((await aliceWeb.get(path)).status, 403, path);
      const anon = await s.request(path);
      assert.equal(anon.status, 302, path);
      assert.equal(anon.headers.get("location"), `/auth/sign_in?return_to=${encodeURIComponent(path)}`);
    }
  });

  it("shows the job queue: counts, the oldest waiting job, failing jobs with their error", async () => {
    // A job no process handles waits; a delivery (a federation job) whose peer refuses it dies
    // after its one attempt.
    await s.ctx.queue.enqueue(UNHANDLED, {}, { runAt: new Date(Date.now() - 60_000) });
    s.ctx.queue.register("federation.test-refused", async () => {
      throw new Error("x.example answered 503\nServer busy");
    });
    await s.ctx.queue.enqueue("federation.test-refused", {}, { attempts: 1 });
    await s.settle({ skip: [UNHANDLED], allowDead: true });
    const page = await adminWeb.get("/admin/jobs");
    assert.equal(page.status, 200, page.body);
    const waiting = page.doc.querySelector(`#job-counts tr[data-name="${UNHANDLED}"]`);
    assert.ok(waiting, page.body);
    assert.equal(waiting.querySelectorAll("td")[0]?.text, "1");
    assert.match(textOf(page.doc, "#oldest-waiting"), /test\.nobody-handles-this/);
    const failing = page.doc.querySelector("#failing-jobs tbody tr");
    assert.ok(failing, page.body);
    assert.match(failing.text, /federation\.test-refused/);
    assert.match(failing.text, /x\.example answered 503/);
    assert.match(failing.text, /1\/1/);
    assert.match(failing.text, /Dead/);
    const dash = await adminWeb.get("/admin/dashboard");
    assert.match(
      dash.doc.querySelector('#attention a[href="/admin/jobs"]')?.text.replace(/\s+/g, " ") ?? "",
      /^1 Failing deliveries/,
    );
  });

  it("lists staff actions in the audit log, newest first, and filters them", async () => {
    const block = await s.request("/api/v1/admin/domain_blocks", {
      method: "POST",
      token: admin.token,
      json: { domain: "x.example" },
    });
    assert.equal(block.status, 200, JSON.stringify(block.body));
    await s.settle({ skip: [UNHANDLED], allowDead: true });
    const page = await modWeb.get("/admin/action_logs");
    assert.equal(page.status, 200);
    const rows = page.doc.querySelectorAll("#action-logs tbody tr");
    assert.ok(rows.length >= 2);
    // Newest first: the domain block, then the report resolved in `before`.
    const first = rows[0];
    assert.equal(first?.getAttribute("data-target-type"), "DomainBlock");
    assert.equal(first?.querySelector(".who a")?.text, "@adele");
    assert.match(first?.querySelector(".target")?.text ?? "", /x\.example/);
    assert.ok(first?.querySelector("time[datetime]"));
    assert.ok(rows.some((r) => r.getAttribute("data-target-type") === "Report"));

    const byType = await modWeb.get("/admin/action_logs?target_type=DomainBlock");
    const typed = byType.doc.querySelectorAll("#action-logs tbody tr");
    assert.ok(typed.length >= 1);
    assert.ok(typed.every((r) => r.getAttribute("data-target-type") === "DomainBlock"));

    const byAction = await modWeb.get("/admin/action_logs?action=resolve");
    const resolved = byAction.doc.querySelectorAll("#action-logs tbody tr");
    assert.ok(resolved.length >= 1);
    assert.ok(resolved.every((r) => r.getAttribute("data-action") === "resolve"));

    // By staff member: the filter's choices are the staff; the moderator did nothing.
    const form = page.doc.querySelector('form[action="/admin/action_logs"] select[name="account_id"]');
    assert.ok(form?.querySelector(`option[value="${admin.account.id}"]`));
    const byAdmin = await modWeb.get(`/admin/action_logs?account_id=${admin.account.id}`);
    const adminRows = byAdmin.doc.querySelectorAll("#action-logs tbody tr");
    assert.ok(adminRows.every((r) => r.querySelector(".who a")?.text === "@adele"));
    assert.equal(adminRows.length, rows.filter((r) => r.querySelector(".who a")?.text === "@adele").length);
    assert.ok(adminRows.length < rows.length, "the owner's role change is left out");
    const byModerator = await modWeb.get(`/admin/action_logs?account_id=${moderator.account.id}`);
    assert.equal(byModerator.doc.querySelectorAll("#action-logs tbody tr").length, 0);
    assert.ok(byModerator.doc.querySelector("#no-actions"));
    // A target filter narrows to one target.
    const blockId = String(block.body.id);
    const byTarget = await modWeb.get(`/admin/action_logs?target_type=DomainBlock&target_id=${blockId}`);
    assert.equal(byTarget.doc.querySelectorAll("#action-logs tbody tr").length, 1);
  });

  it("pages through the log with Older and Newer links that keep the filters", async () => {
    for (let i = 0; i < 42; i++) {
      const r = await s.request("/api/v1/admin/email_domain_blocks", {
        method: "POST",
        token: admin.token,
        json: { domain: `spam${i}.example` },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const first = await adminWeb.get("/admin/action_logs?target_type=EmailDomainBlock&action=create");
    const rows1 = first.doc.querySelectorAll("#action-logs tbody tr");
    assert.equal(rows1.length, 40);
    assert.match(rows1[0]?.text ?? "", /spam41\.example/);
    const older = first.doc.querySelector('a[rel="next"]')?.getAttribute("href");
    assert.ok(older?.includes("target_type=EmailDomainBlock"), older);
    assert.equal(first.doc.querySelector('a[rel="prev"]'), null);
    const second = await adminWeb.get(older ?? "");
    const rows2 = second.doc.querySelectorAll("#action-logs tbody tr");
    assert.equal(rows2.length, 2);
    assert.match(rows2[1]?.text ?? "", /spam0\.example/);
    assert.equal(second.doc.querySelector('a[rel="next"]'), null);
    const newer = second.doc.querySelector('a[rel="prev"]')?.getAttribute("href");
    assert.ok(newer);
    const back = await adminWeb.get(newer);
    const rows3 = back.doc.querySelectorAll("#action-logs tbody tr");
    assert.equal(rows3.length, 40);
    assert.match(rows3.at(-1)?.text ?? "", /spam2\.example/);
  });
});
