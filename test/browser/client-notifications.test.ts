import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("web client notifications in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let erin: TestUser;
  let frank: TestUser;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    [erin, frank] = await Promise.all([s.createUser("erin"), s.createUser("frank")]);
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("signs in, sees a mention arrive live with the unread badge, marks all as read", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));

    // The server by its own name (its base URL), so its absolute media addresses are 'self' to the CSP.
    await page.goto(`${s.ctx.config.baseUrl}/notifications`);
    assert.match(page.url(), /\/auth\/sign_in\?return_to=/);
    await page.fill(
      "form[action='/auth/sign_in'] input[type=email], form[action='/auth/sign_in'] input[autocomplete=username]",
      erin.user.email,
    );
    await page.fill("form[action='/auth/sign_in'] input[type=password]", erin.password);
    await Promise.all([
      page.waitForURL(/\/notifications$/),
      page.click("form[action='/auth/sign_in'] button[type=submit]"),
    ]);
    assert.equal(await page.locator("#notifications li.notification").count(), 0);
    // The page's stream is open before the mention is posted.
    await page.waitForSelector("html[data-notifications-live='1']", { state: "attached" });

    const mention = await s.request("/api/v1/statuses", {
      token: frank.token,
      json: { status: "@erin did you see this live?" },
    });
    assert.equal(mention.status, 200);
    const item = page.locator('#notifications li.notification[data-type="mention"]');
    await item.waitFor();
    assert.match((await item.textContent()) ?? "", /did you see this live\?/);
    assert.equal(await item.getAttribute("class").then((c) => c?.includes("unread")), true);
    const badge = page.locator(".client-nav .unread");
    await page.waitForFunction(() => {
      const b = document.querySelector(".client-nav .unread");
      return b !== null && !b.hasAttribute("hidden") && b.textContent === "1";
    });
    assert.equal(await badge.textContent(), "1");

    await page.click("#mark-all-read");
    await page.waitForFunction(() => document.querySelector(".client-nav .unread")?.hasAttribute("hidden") === true);
    assert.equal(await page.locator("#notifications li.notification.unread").count(), 0);

    const newest = await s.request("/api/v1/notifications?limit=1", { token: erin.token });
    const markers = await s.request("/api/v1/markers?timeline[]=notifications", { token: erin.token });
    assert.equal(markers.status, 200);
    assert.equal(markers.body.notifications.last_read_id, newest.body[0].id);
    assert.equal(newest.body[0].type, "mention");
    const unread = await s.request("/api/v2/notifications/unread_count", { token: erin.token });
    assert.equal(unread.body.count, 0);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
