import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("moderation panel accounts in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let mod: TestUser;
  let troll: TestUser;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    mod = await s.createUser("mona", { role: "Moderator" });
    troll = await s.createUser("troublemaker");
    await s.createUser("bystander");
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("a moderator finds an account with the search form, suspends it, then lifts the suspension", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    const suspended = async () => (await s.request(`/api/v1/accounts/${troll.account.id}`)).body.suspended === true;

    await page.goto(`${s.url}/admin/accounts`);
    assert.match(page.url(), /\/auth\/sign_in\?return_to=/);
    await page.fill(
      "form[action='/auth/sign_in'] input[type=email], form[action='/auth/sign_in'] input[autocomplete=username]",
      mod.user.email,
    );
    await page.fill("form[action='/auth/sign_in'] input[type=password]", mod.password);
    await Promise.all([
      page.waitForURL(/\/admin\/accounts$/),
      page.click("form[action='/auth/sign_in'] button[type=submit]"),
    ]);

    // The search form narrows the list to the one account.
    await page.fill("form[action='/admin/accounts'] input[name=username]", "trouble");
    await Promise.all([
      page.waitForURL(/username=trouble/),
      page.click("form[action='/admin/accounts'] button[type=submit]"),
    ]);
    const rows = await page.$$eval(".accounts-table tbody tr", (trs) => trs.map((tr) => tr.getAttribute("data-id")));
    assert.deepEqual(rows, [troll.account.id]);

    await Promise.all([
      page.waitForURL(new RegExp(`/admin/accounts/${troll.account.id}$`)),
      page.click(`.accounts-table a[href='/admin/accounts/${troll.account.id}']`),
    ]);
    await page.selectOption("#action-type", "suspend");
    await page.fill("#action-text", "Suspended for repeated abuse.");
    await Promise.all([page.waitForURL(/notice=/), page.click("form.account-action button[type=submit]")]);
    assert.equal((await page.textContent("p.notice"))?.trim(), "The action was taken.");
    assert.match((await page.textContent(".admin-account-header")) ?? "", /Suspended/);
    assert.equal(await suspended(), true, "the API shows the account suspended");

    await Promise.all([
      page.waitForURL(/notice=admin\.accounts\.undone/),
      page.click(`form[action='/admin/accounts/${troll.account.id}/unsuspend'] button`),
    ]);
    assert.equal((await page.textContent("p.notice"))?.trim(), "The action was lifted.");
    assert.doesNotMatch((await page.textContent(".admin-account-header")) ?? "", /Suspended/);
    assert.equal(await suspended(), false, "the API shows the suspension lifted");
    assert.match((await page.textContent(".account-log")) ?? "", /lifted the suspension of @troublemaker/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
