import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("the web client's home timeline in Chromium: live replies, load more, marker, keys", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let alice: TestUser;
  let bob: TestUser;
  let question = "";
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    await s.follow(alice, bob);
    for (let i = 0; i < 42; i++) {
      const r = await s.request("/api/v1/statuses", {
        method: "POST",
        token: bob.token,
        json: { status: `Older post ${i}` },
      });
      assert.equal(r.status, 200);
    }
    const q = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "Does anyone know the way?" },
    });
    question = q.body.id;
    await s.settle();
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  it("signs in, sees a reply arrive without a reload, loads older posts, saves the marker", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text()) || m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    // The frames the page sends on its streaming socket (its subscriptions).
    const sent: string[] = [];
    let subscribed: () => void = () => {};
    const userStream = new Promise<void>((resolve) => {
      subscribed = resolve;
    });
    page.on("websocket", (ws) =>
      ws.on("framesent", (f) => {
        sent.push(String(f.payload));
        if (/"subscribe"/.test(String(f.payload)) && /"user"/.test(String(f.payload))) subscribed();
      }),
    );

    // The server's own origin (its base URL), which the media and avatar URLs it writes name.
    await page.goto(`${new URL(s.ctx.config.baseUrl).origin}/home`);
    assert.match(page.url(), /\/auth\/sign_in\?return_to=/);
    await page.fill(
      "form[action='/auth/sign_in'] input[type=email], form[action='/auth/sign_in'] input[autocomplete=username]",
      alice.user.email,
    );
    await page.fill("form[action='/auth/sign_in'] input[type=password]", alice.password);
    await Promise.all([page.waitForURL(/\/home$/), page.click("form[action='/auth/sign_in'] button[type=submit]")]);
    // The timeline script subscribes to the user stream on the shared socket.
    await userStream;
    const items = "ul.statuses[data-timeline=home] > li[data-id]";
    assert.equal(await page.locator(items).count(), 40);
    assert.equal(await page.locator(`${items} article[data-id="${question}"]`).count(), 1);
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    // The reader is at the top: the home marker follows the newest post (debounced).
    await page.waitForSelector("ul.statuses[data-marker-saved]");
    const saved = await page.getAttribute("ul.statuses", "data-marker-saved");
    const markers = await s.request("/api/v1/markers?timeline[]=home", { token: alice.token });
    assert.equal(markers.body.home?.last_read_id, saved);

    // Bob answers through the API: the answer comes through the streaming API to the top of the list.
    const reply = await s.request("/api/v1/statuses", {
      method: "POST",
      token: bob.token,
      json: { status: `@${alice.account.username} Follow the river`, in_reply_to_id: question },
    });
    assert.equal(reply.status, 200);
    await page.waitForSelector(`${items}:first-child article.status[data-id="${reply.body.id}"]`, { timeout: 15_000 });
    assert.match(
      (await page.textContent(`article.status[data-id="${reply.body.id}"] .content`)) ?? "",
      /Follow the river/,
    );
    assert.equal(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), true);

    // Load more: the API's next page goes under the first 40 and the end is said.
    await page.click("button.load-more");
    await page.waitForSelector(".timeline-end");
    assert.equal(await page.locator(items).count(), 44, "42 of Bob's posts, the question and the answer");
    const last = await page.locator(`${items}:last-child .content`).textContent();
    assert.equal(last?.trim(), "Older post 0");

    // Scrolled down, a new post waits behind the "1 new post" button; "." shows it.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const later = await s.request("/api/v1/statuses", {
      method: "POST",
      token: bob.token,
      json: { status: "Later news" },
    });
    await page.waitForSelector("button.new-items:not([hidden])", { timeout: 15_000 });
    assert.equal((await page.textContent("button.new-items"))?.trim(), "1 new post");
    assert.equal(await page.locator(`article.status[data-id="${later.body.id}"]`).count(), 0);
    await page.keyboard.press(".");
    await page.waitForSelector(`${items}:first-child article.status[data-id="${later.body.id}"]`);
    assert.equal(await page.isHidden("button.new-items"), true);

    // j and k move the focus between posts.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator("h1").click();
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    const second = await page.evaluate(() => document.activeElement?.getAttribute("data-id"));
    const ids = await page.locator(items).evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
    assert.equal(second, ids[1]);
    await page.keyboard.press("k");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-id")), ids[0]);

    assert.deepEqual(problems, []);
    await page.close();
  });

  it("creates and deletes a list, and follows a hashtag, through the API from the pages", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    const origin = new URL(s.ctx.config.baseUrl).origin;
    // The browser context kept the session of the first test.
    await page.goto(`${origin}/lists`);
    await page.fill("#list-title", "Neighbours");
    await page.click("form.list-create button[type=submit]");
    await page.waitForSelector("ul.client-lists a:text-is('Neighbours')");
    const lists = await s.request("/api/v1/lists", { token: alice.token });
    const made = (lists.body as { id: string; title: string }[]).find((l) => l.title === "Neighbours");
    assert.ok(made, "the list was created through the API");
    page.once("dialog", (d) => void d.accept());
    await page.click(`button.list-delete[data-list-id="${made.id}"]`);
    await page.waitForSelector(`ul.client-lists li[data-list-id="${made.id}"]`, { state: "detached" });
    assert.equal((await s.request(`/api/v1/lists/${made.id}`, { token: alice.token })).status, 404);

    await page.goto(`${origin}/web/tags/rivers`);
    await page.click("button.tag-follow");
    await page.waitForSelector("button.tag-follow[aria-pressed=true]");
    const followed = await s.request("/api/v1/followed_tags", { token: alice.token });
    assert.deepEqual(
      (followed.body as { name: string }[]).map((t) => t.name),
      ["rivers"],
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
});
