import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { follow } from "../../src/services/follows/follow.ts";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("export in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    [alice, bob] = await Promise.all([s.createUser("alice"), s.createUser("bob")]);
    await follow(s.ctx, alice.account, bob.account.id, { languages: ["en"] });
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("signs in, downloads follows.csv, requests the archive and sees its link appear", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    await page.goto(`${s.url}/settings/export`);
    // Sent to the sign-in form, which comes back here.
    assert.match(new URL(page.url()).pathname, /^\/auth\/sign_in/);
    await page.fill('input[name="email"]', alice.user.email);
    await page.fill('input[name="password"]', alice.password);
    await Promise.all([page.waitForURL(/\/settings\/export$/), page.click('button[type="submit"]:not(.link)')]);
    assert.equal(await page.textContent("h1"), "Export");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click('a[href="/settings/exports/follows.csv"]'),
    ]);
    assert.equal(download.suggestedFilename(), "following_accounts.csv");
    const path = await download.path();
    assert.equal(
      await readFile(path, "utf8"),
      `Account address,Show boosts,Notify on new posts,Languages\nbob@${s.ctx.config.localDomain},true,false,en\n`,
    );

    await Promise.all([page.waitForLoadState("load"), page.click('form[action="/settings/export"] button')]);
    assert.match((await page.textContent("#archives")) ?? "", /Being prepared/);
    await s.settle();
    // The list refreshes itself (data-refresh.js) until the archive is ready.
    const link = await page.waitForSelector('#archives a[href^="/settings/export/archive/"]', { timeout: 15_000 });
    assert.match((await link.textContent()) ?? "", /Download archive/);
    const [zip] = await Promise.all([page.waitForEvent("download"), link.click()]);
    assert.match(zip.suggestedFilename(), /^archive-\d{14}\.zip$/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
