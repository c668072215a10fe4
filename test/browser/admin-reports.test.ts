import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("moderation panel: a report in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let moderator: TestUser;
  let troll: TestUser;
  let reportId: string;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    moderator = await s.createUser("maude", { role: "Moderator" });
    troll = await s.createUser("troll");
    const reporter = await s.createUser("rita");
    const post = await s.request("/api/v1/statuses", { token: troll.token, json: { status: "Rude words here" } });
    assert.equal(post.status, 200, JSON.stringify(post.body));
    const r = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: troll.account.id, status_ids: [post.body.id], comment: "Please look at this" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    reportId = r.body.id;
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("a moderator opens the report from the list and warns the user, who gets the notification", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));

    // The panel sends the visitor to sign in, then back to the list.
    await page.goto(`${s.url}/admin/reports`);
    assert.match(page.url(), /\/auth\/sign_in\?return_to=/);
    await page.fill(
      "form[action='/auth/sign_in'] input[type=email], form[action='/auth/sign_in'] input[autocomplete=username]",
      moderator.user.email,
    );
    await page.fill("form[action='/auth/sign_in'] input[type=password]", moderator.password);
    await Promise.all([
      page.waitForURL(/\/admin\/reports$/),
      page.click("form[action='/auth/sign_in'] button[type=submit]"),
    ]);

    // The list shows the report; its link opens it.
    const row = page.locator(`table.admin-reports-table tr[data-id="${reportId}"]`);
    assert.match((await row.textContent()) ?? "", /@troll/);
    await Promise.all([
      page.waitForURL(new RegExp(`/admin/reports/${reportId}$`)),
      row.locator(`a[href="/admin/reports/${reportId}"]`).click(),
    ]);
    assert.equal((await page.textContent("blockquote.admin-report-comment"))?.trim(), "Please look at this");
    assert.match((await page.textContent(".admin-report-content")) ?? "", /Rude words here/);

    // Warn with a text (the "warning only" action is the default).
    assert.equal(await page.isChecked("form.admin-report-act input[name=type][value=none]"), true);
    await page.fill("#act-text", "Mind your language, please.");
    await Promise.all([
      page.waitForURL(/notice=admin\.reports\.notice\.acted/),
      page.click("form.admin-report-act button[type=submit]"),
    ]);
    assert.equal((await page.textContent("p.notice"))?.trim(), "Action taken; the report is resolved.");
    assert.match((await page.textContent("dd.admin-report-state")) ?? "", /Resolved by @maude/);
    assert.match((await page.textContent("ol.admin-report-history")) ?? "", /@maude sent a warning to @troll/);

    // The warned user's notifications show the warning.
    await s.settle();
    const notifications = await s.request("/api/v1/notifications", { token: troll.token });
    assert.equal(notifications.status, 200);
    const warning = notifications.body.find((n: { type: string }) => n.type === "moderation_warning");
    assert.ok(warning, JSON.stringify(notifications.body));
    assert.equal(warning.moderation_warning.action, "none");
    assert.equal(warning.moderation_warning.text, "Mind your language, please.");
    assert.deepEqual(problems, []);
    await page.close();
  });
});
