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
  it("accepts a follow request, saves the seen top when leaving, marks a conversation read when opened", async () => {
    const base = s.ctx.config.baseUrl;
    const ivy = await s.createUser("ivy");
    const locked = await s.request("/api/v1/accounts/update_credentials", {
      token: erin.token,
      method: "PATCH",
      json: { locked: true },
    });
    assert.equal(locked.status, 200);
    assert.equal(
      (await s.request(`/api/v1/accounts/${erin.account.id}/follow`, { token: ivy.token, method: "POST" })).status,
      200,
    );
    const direct = await s.request("/api/v1/statuses", {
      token: frank.token,
      json: { status: "@erin just between us", visibility: "direct" },
    });
    assert.equal(direct.status, 200);
    await s.settle();

    // The page context still holds the session of the first test.
    const page = await chrome.context.newPage();
    await page.goto(`${base}/notifications`);
    const request = page.locator('#notifications li.notification[data-type="follow_request"]');
    await request.waitFor();
    await request.locator('button[data-follow-request="authorize"]').click();
    await page.waitForFunction(() =>
      /Accepted/.test(document.querySelector('li.notification[data-type="follow_request"]')?.textContent ?? ""),
    );
    const rel = await s.request(`/api/v1/accounts/relationships?id[]=${ivy.account.id}`, { token: erin.token });
    assert.equal(rel.body[0].followed_by, true);

    // Leaving the page with its top seen saves the newest notification as read.
    const newest = (await s.request("/api/v1/notifications?limit=1", { token: erin.token })).body[0].id;
    await page.goto(`${base}/conversations`);
    let saved: string | undefined;
    for (let i = 0; i < 200 && saved !== newest; i++) {
      const m = await s.request("/api/v1/markers?timeline[]=notifications", { token: erin.token });
      saved = m.body.notifications?.last_read_id;
      if (saved !== newest) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(saved, newest);

    const conversation = page.locator("#conversations li.conversation.unread").first();
    await conversation.waitFor();
    const id = await conversation.getAttribute("data-id");
    await Promise.all([
      page.waitForURL(/\/web\/statuses\/\d+$/),
      conversation.locator("a[data-conversation-id]").click(),
    ]);
    assert.match((await page.locator("#thread li.focus").textContent()) ?? "", /just between us/);
    const after = await s.request("/api/v1/conversations", { token: erin.token });
    assert.equal(after.body.find((c: { id: string }) => c.id === id)?.unread, false);
    await page.close();
  });
});
