import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("settings in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let dana: TestUser;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    dana = await s.createUser("dana");
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("signs in, previews a new avatar cropped to its frame, saves the display name and bio", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));

    // The settings page sends an anonymous visitor to sign in, then back.
    await page.goto(`${s.url}/settings/profile`);
    assert.match(page.url(), /\/auth\/sign_in\?return_to=/);
    await page.fill("form[action='/auth/sign_in'] input[type=password]", dana.password);
    await page.fill(
      "form[action='/auth/sign_in'] input[type=email], form[action='/auth/sign_in'] input[autocomplete=username]",
      dana.user.email,
    );
    await Promise.all([
      page.waitForURL(/\/settings\/profile$/),
      page.click("form[action='/auth/sign_in'] button[type=submit]"),
    ]);

    // Choosing a file shows it in the avatar's square frame before anything is uploaded.
    const before = await page.getAttribute("#avatar-preview", "src");
    const wide = await sharp({ create: { width: 300, height: 100, channels: 4, background: "#cc3366" } })
      .png()
      .toBuffer();
    await page.setInputFiles("#avatar", { name: "wide.png", mimeType: "image/png", buffer: wide });
    await page.waitForFunction(() =>
      document.getElementById("avatar-preview")?.getAttribute("src")?.startsWith("blob:"),
    );
    assert.notEqual(await page.getAttribute("#avatar-preview", "src"), before);
    const box = await page.$eval("#avatar-preview", (img) => {
      const r = img.getBoundingClientRect();
      return { w: r.width, h: r.height, fit: getComputedStyle(img).objectFit };
    });
    assert.ok(box.w > 0 && Math.abs(box.w - box.h) < 1, `square frame, got ${box.w}×${box.h}`);
    assert.equal(box.fit, "cover");
    const header = await page.$eval("#header-frame", (el) => el.getBoundingClientRect());
    assert.ok(Math.abs(header.width / header.height - 3) < 0.05, "3:1 header frame");

    await page.fill("#display_name", "Dana in Chromium");
    await page.fill("#note", "Written in a real browser");
    await Promise.all([page.waitForURL(/saved=1/), page.click("form[action='/settings/profile'] button[type=submit]")]);
    assert.equal((await page.textContent("p.notice"))?.trim(), "Changes saved.");
    assert.equal(await page.inputValue("#display_name"), "Dana in Chromium");

    const me = await s.request("/api/v1/accounts/verify_credentials", { token: dana.token });
    assert.equal(me.body.display_name, "Dana in Chromium");
    assert.equal(me.body.source.note, "Written in a real browser");
    assert.doesNotMatch(me.body.avatar, /missing/, "the previewed avatar was uploaded with the form");
    assert.deepEqual(problems, []);
    await page.close();
  });
});
