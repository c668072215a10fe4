import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

/**
 * Issue 19's user journey in one browser session: sign in, post from home's compose box with an
 * image and then with a poll, see a second user's reply arrive on home without a reload, see the
 * notification badge, and mark the notifications read. Everything the page does goes through the
 * API, which the test reads back with the user's own token.
 */
describe("the web client from sign-in to notifications read, in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let gil: TestUser;
  let hal: TestUser;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    gil = await s.createUser("gil");
    hal = await s.createUser("hal");
    await s.follow(gil, hal);
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("posts an image and a poll, sees a reply arrive live, and marks notifications read", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));

    const origin = s.ctx.config.baseUrl;
    await page.goto(`${origin}/home`);
    assert.match(page.url(), /\/auth\/sign_in\?return_to=/);
    await page.fill(
      "form[action='/auth/sign_in'] input[type=email], form[action='/auth/sign_in'] input[autocomplete=username]",
      gil.user.email,
    );
    await page.fill("form[action='/auth/sign_in'] input[type=password]", gil.password);
    await Promise.all([page.waitForURL(/\/home$/), page.click("form[action='/auth/sign_in'] button[type=submit]")]);

    const home = "ul.statuses[data-timeline=home]";
    const posted = async () => {
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/api/v1/statuses") && r.request().method() === "POST"),
        page.click("#compose-submit"),
      ]);
      assert.equal(res.status(), 200);
      const status = (await res.json()) as { id: string };
      // One's own post goes to the top of home at once.
      await page.waitForSelector(`${home} article.status[data-id="${status.id}"]`);
      return status.id;
    };

    // A post with an image and its description.
    await page.fill("#compose-text", "My garden today");
    const png = await sharp({ create: { width: 32, height: 32, channels: 4, background: "#33aa55" } })
      .png()
      .toBuffer();
    await page.setInputFiles("#compose-file", { name: "garden.png", mimeType: "image/png", buffer: png });
    await page.waitForSelector("#compose-media li[data-media-id]");
    await page.fill("#compose-media textarea", "A green square of lawn");
    const imageId = await posted();
    const image = await s.request(`/api/v1/statuses/${imageId}`, { token: gil.token });
    assert.equal(image.body.media_attachments[0].description, "A green square of lawn");
    assert.equal(
      await page.getAttribute(`${home} article.status[data-id="${imageId}"] .media img`, "alt"),
      "A green square of lawn",
      "the alt text is on the image",
    );

    // A post with a poll.
    await page.fill("#compose-text", "Roses or tulips?");
    await page.click('[data-compose="poll"]');
    await page.fill("#compose-poll-options li:nth-child(1) input", "Roses");
    await page.fill("#compose-poll-options li:nth-child(2) input", "Tulips");
    const pollId = await posted();
    const poll = await s.request(`/api/v1/statuses/${pollId}`, { token: gil.token });
    assert.deepEqual(
      poll.body.poll.options.map((o: { title: string }) => o.title),
      ["Roses", "Tulips"],
    );

    // Hal replies to the image post: the reply arrives on home without a reload.
    // Once the page's stream is open and the home marker saved (a second later), the subscription is in place.
    await page.waitForSelector("html[data-stream-open]", { state: "attached", timeout: 15_000 });
    await page.waitForSelector(`${home}[data-marker-saved]`, { state: "attached", timeout: 15_000 });
    const reply = await s.request("/api/v1/statuses", {
      method: "POST",
      token: hal.token,
      json: { status: "@gil lovely lawn!", in_reply_to_id: imageId },
    });
    assert.equal(reply.status, 200);
    await page.waitForSelector(`${home} article.status[data-id="${reply.body.id}"]`, { timeout: 15_000 });
    assert.match(
      (await page.textContent(`${home} article.status[data-id="${reply.body.id}"] .content`)) ?? "",
      /lovely lawn/,
    );

    // The mention shows in the menu's unread badge, then on the notifications page, read with one press.
    await page.waitForFunction(
      () => {
        const b = document.querySelector(".client-nav .unread");
        return b !== null && !b.hasAttribute("hidden") && Number(b.textContent) >= 1;
      },
      undefined,
      { timeout: 15_000 },
    );
    await Promise.all([page.waitForURL(/\/notifications$/), page.click(".client-nav a[href='/notifications']")]);
    await page.locator('#notifications li.notification.unread[data-type="mention"]').waitFor();
    await page.click("#mark-all-read");
    await page.waitForFunction(() => document.querySelector(".client-nav .unread")?.hasAttribute("hidden") === true);
    const newest = await s.request("/api/v1/notifications?limit=1", { token: gil.token });
    assert.equal(newest.body[0].type, "mention");
    const markers = await s.request("/api/v1/markers?timeline[]=notifications", { token: gil.token });
    assert.equal(markers.body.notifications.last_read_id, newest.body[0].id);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
