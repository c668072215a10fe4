import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("moderation panel's domain blocks in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let admin: TestUser;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    admin = await s.createUser("blocker", { role: "Admin", scopes: "read write admin:read admin:write" });
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("an admin signs in, suspends a domain through the form (after its confirmation), sees it listed and in the API", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));

    await page.goto(`${s.url}/admin/domain_blocks/new`);
    assert.match(page.url(), /\/auth\/sign_in\?return_to=/);
    await page.fill(
      "form[action='/auth/sign_in'] input[type=email], form[action='/auth/sign_in'] input[autocomplete=username]",
      admin.user.email,
    );
    await page.fill("form[action='/auth/sign_in'] input[type=password]", admin.password);
    await Promise.all([
      page.waitForURL(/\/admin\/domain_blocks\/new$/),
      page.click("form[action='/auth/sign_in'] button[type=submit]"),
    ]);

    await page.fill("#domain", "badplace.example");
    await page.check("#severity_suspend");
    await page.check("#reject_reports");
    await page.fill("#public_comment", "Harassment");
    await page.click("form[action='/admin/domain_blocks'] button[type=submit]");
    // The suspension asks first.
    await page.waitForSelector(".block-effects");
    assert.match((await page.textContent("h1")) ?? "", /badplace\.example/);
    await Promise.all([
      page.waitForURL(/\/admin\/domain_blocks\?notice=/),
      page.click("form[action='/admin/domain_blocks'] button[type=submit]"),
    ]);
    assert.equal((await page.textContent("p.notice"))?.trim(), "Domain blocked.");
    const row = (await page.textContent("tr[data-domain='badplace.example']")) ?? "";
    assert.match(row, /Suspend/);
    assert.match(row, /Harassment/);

    const api = await s.request("/api/v1/admin/domain_blocks", { token: admin.token });
    assert.equal(api.status, 200);
    const block = (
      api.body as { domain: string; severity: string; reject_reports: boolean; public_comment: string }[]
    ).find((b) => b.domain === "badplace.example");
    assert.ok(block, "the API lists the block");
    assert.deepEqual([block.severity, block.reject_reports, block.public_comment], ["suspend", true, "Harassment"]);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
