import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { lastMailTo, linkIn } from "../helpers/web.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("sign-up in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("signs up, shows the pending state, and confirms the address from the mailed link", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    await page.goto(`${s.url}/auth/sign_up`);
    // A mistake first: the error is shown next to its field and the typed values stay.
    await page.getByLabel("Username").fill("browserbird");
    await page.getByLabel("E-mail address").fill("browserbird@example.com");
    await page.getByLabel("Password", { exact: true }).fill("a long enough password");
    await page.getByLabel("Confirm password").fill("not the same one");
    await page.check("#agreement");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForSelector("#password_confirmation-error");
    assert.equal(await page.textContent("#password_confirmation-error"), "The passwords do not match.");
    assert.equal(await page.inputValue("#username"), "browserbird");

    await page.getByLabel("Password", { exact: true }).fill("a long enough password");
    await page.getByLabel("Confirm password").fill("a long enough password");
    await page.check("#agreement");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL(/\/auth\/setup$/);
    assert.equal(await page.textContent("h1"), "Confirm your e-mail address");

    const link = linkIn(s, lastMailTo(s, "browserbird@example.com").text, "/auth/confirmation");
    await page.goto(`${s.url}${link}`);
    assert.equal(await page.textContent("h1"), "E-mail address confirmed");
    const user = await s.ctx.repos.users.getByEmail("browserbird@example.com");
    assert.ok(user?.confirmedAt);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
