import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("web layout in Chromium", { skip }, () => {
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

  it("renders a page with its stylesheet and no Content-Security-Policy violation", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    await page.goto(`${s.url}/auth/sign_in`);
    assert.equal(await page.getAttribute("html", "lang"), "en");
    // The stylesheet applied: the main box is centred with a card background.
    const maxWidth = await page.$eval("main", (el) => getComputedStyle(el).maxWidth);
    assert.notEqual(maxWidth, "none");
    // Keyboard: on a page without autofocus, the first Tab reaches the skip link, which is then visible.
    await page.goto(`${s.url}/oauth/authorize`);
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.className), "skip");
    const left = await page.$eval("a.skip", (el) => el.getBoundingClientRect().left);
    assert.ok(left >= 0, `skip link off screen when focused (${left})`);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
