import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

describe("web client compose in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  let eve: TestUser;
  before(async () => {
    s = await startTestServer();
    chrome = await launchChromium();
    eve = await s.createUser("eve");
  });
  after(async () => {
    await chrome?.close();
    await s?.close();
  });

  /** Eve's statuses as the API lists them, newest first. */
  async function eveStatuses(): Promise<any[]> {
    const r = await s.request(`/api/v1/accounts/${eve.account.id}/statuses`, { token: eve.token });
    assert.equal(r.status, 200);
    return r.body;
  }

  /** Submits the box and waits for the API's answer (and the new post in the page's list). */
  async function post(page: Page, count: number): Promise<void> {
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/statuses") && r.request().method() === "POST"),
      page.click("#compose-submit"),
    ]);
    await page.waitForFunction(
      (n) => document.querySelectorAll("ul[data-compose-posted] article.status").length === n,
      count,
    );
  }

  it("posts with an image (alt text, focus) and with a poll, replies, favourites, bookmarks, edits and deletes", async () => {
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("dialog", (d) => void d.accept());

    // The server's own origin (its base URL), where its avatars and media are served from.
    const origin = s.ctx.config.baseUrl;
    await page.goto(`${origin}/web/compose`);
    assert.match(page.url(), /\/auth\/sign_in\?return_to=/);
    await page.fill("form[action='/auth/sign_in'] input[type=password]", eve.password);
    await page.fill(
      "form[action='/auth/sign_in'] input[type=email], form[action='/auth/sign_in'] input[autocomplete=username]",
      eve.user.email,
    );
    await Promise.all([
      page.waitForURL(/\/web\/compose$/),
      page.click("form[action='/auth/sign_in'] button[type=submit]"),
    ]);

    // The count follows the server's rule: a long URL counts 23.
    const max = Number(await page.getAttribute("#compose", "data-max-characters"));
    await page.fill("#compose-text", `Look https://example.com/${"x".repeat(60)}`);
    assert.equal(await page.textContent("#compose-remaining"), String(max - 5 - 23));
    assert.equal(await page.isDisabled("#compose-submit"), false);

    // An image: uploaded at once, then described and given a focus point.
    await page.fill("#compose-text", "A pink square");
    const png = await sharp({ create: { width: 40, height: 20, channels: 4, background: "#cc3366" } })
      .png()
      .toBuffer();
    await page.setInputFiles("#compose-file", { name: "pink.png", mimeType: "image/png", buffer: png });
    await page.waitForSelector("#compose-media li[data-media-id]");
    assert.equal(await page.isDisabled('[data-compose="poll"]'), true, "media or a poll, not both");
    await page.fill("#compose-media textarea", "A pink rectangle, twice as wide as high");
    const preview = await page.$("#compose-media .preview img");
    const box = await preview?.boundingBox();
    assert.ok(box);
    await Promise.all([
      page.waitForResponse((r) => /\/api\/v1\/media\/\d+$/.test(r.url()) && r.request().method() === "PUT"),
      page.mouse.click(box.x + box.width * 0.75, box.y + box.height * 0.25),
    ]);
    await post(page, 1);
    assert.equal(await page.inputValue("#compose-text"), "", "the box is reset");
    let [withImage] = await eveStatuses();
    assert.equal(withImage.content, "<p>A pink square</p>");
    assert.equal(withImage.media_attachments.length, 1);
    assert.equal(withImage.media_attachments[0].description, "A pink rectangle, twice as wide as high");
    const focus = withImage.media_attachments[0].meta.focus;
    assert.ok(Math.abs(focus.x - 0.5) < 0.1 && Math.abs(focus.y - 0.5) < 0.1, JSON.stringify(focus));

    // A poll with two choices, several allowed.
    await page.fill("#compose-text", "Tea or coffee?");
    await page.click('[data-compose="poll"]');
    assert.equal(await page.isDisabled("#compose-file"), true);
    await page.fill("#compose-poll-options li:nth-child(1) input", "Tea");
    await page.fill("#compose-poll-options li:nth-child(2) input", "Coffee");
    await page.check("#compose-poll-multiple");
    await page.selectOption("#compose-poll-expires", "3600");
    await post(page, 2);
    const [withPoll] = await eveStatuses();
    assert.equal(withPoll.content, "<p>Tea or coffee?</p>");
    assert.deepEqual(
      withPoll.poll.options.map((o: { title: string }) => o.title),
      ["Tea", "Coffee"],
    );
    assert.equal(withPoll.poll.multiple, true);

    // Favourite and bookmark the image post from the list: the buttons turn on, the API agrees.
    const article = `ul[data-compose-posted] article.status[data-id="${withImage.id}"]`;
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/statuses/${withImage.id}/favourite`) && r.ok()),
      page.click(`${article} [data-action="favourite"]`),
    ]);
    assert.equal(await page.getAttribute(`${article} [data-action="favourite"]`, "aria-pressed"), "true");
    assert.equal((await page.textContent(`${article} [data-action="favourite"] .count`))?.trim(), "1");
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/statuses/${withImage.id}/bookmark`) && r.ok()),
      page.click(`${article} [data-action="bookmark"]`),
    ]);
    [, withImage] = await eveStatuses();
    assert.equal(withImage.favourited, true);
    assert.equal(withImage.favourites_count, 1);
    assert.equal(withImage.bookmarked, true);

    // A reply, sent with Ctrl+Enter.
    await page.click(`${article} [data-action="reply"]`);
    assert.equal(await page.isVisible("#compose-context"), true);
    await page.fill("#compose-text", "Answering myself");
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/statuses") && r.request().method() === "POST"),
      page.press("#compose-text", "Control+Enter"),
    ]);
    await page.waitForFunction(() => document.querySelectorAll("ul[data-compose-posted] article.status").length === 3);
    const [reply] = await eveStatuses();
    assert.equal(reply.in_reply_to_id, withImage.id);
    assert.equal(await page.isHidden("#compose-context"), true);

    // Edit the poll post from its menu, then delete the reply.
    const pollArticle = `ul[data-compose-posted] article.status[data-id="${withPoll.id}"]`;
    await page.click(`${pollArticle} [data-action="more"]`);
    await page.click('.status-menu [role="menuitem"]:has-text("Edit")');
    await page.waitForFunction(() => (document.getElementById("compose-text") as HTMLTextAreaElement).value !== "");
    assert.equal(await page.inputValue("#compose-text"), "Tea or coffee?");
    await page.fill("#compose-text", "Tea or coffee? (edited)");
    await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith(`/api/v1/statuses/${withPoll.id}`) && r.request().method() === "PUT",
      ),
      page.click("#compose-submit"),
    ]);
    const edited = (await s.request(`/api/v1/statuses/${withPoll.id}`, { token: eve.token })).body;
    assert.equal(edited.content, "<p>Tea or coffee? (edited)</p>");
    assert.deepEqual(
      edited.poll.options.map((o: { title: string }) => o.title),
      ["Tea", "Coffee"],
    );
    await page.waitForSelector(`${pollArticle} .edited`);

    const replyArticle = `ul[data-compose-posted] article.status[data-id="${reply.id}"]`;
    await page.click(`${replyArticle} [data-action="more"]`);
    await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith(`/api/v1/statuses/${reply.id}`) && r.request().method() === "DELETE",
      ),
      page.click('.status-menu [role="menuitem"]:has-text("Delete")'),
    ]);
    await page.waitForSelector(replyArticle, { state: "detached" });
    assert.ok([404, 410].includes((await s.request(`/api/v1/statuses/${reply.id}`, { token: eve.token })).status));

    assert.deepEqual(problems, []);
    await page.close();
  });

  it("votes, quotes, follows, reports with a rule and mutes on another user's posts", async () => {
    const fay = await s.createUser("fay");
    const admin = await s.createUser("boss", { role: "Admin", scopes: "read write admin:read admin:write" });
    const rule = s.ctx.ids.next();
    await s.ctx.repos.settings.addRule({
      id: rule,
      text: "Be kind",
      hint: "",
      position: 1,
      at: new Date().toISOString(),
    });
    const poll = await s.request("/api/v1/statuses", {
      method: "POST",
      token: fay.token,
      json: { status: "Cats or dogs?", poll: { options: ["Cats", "Dogs"], expires_in: 3600 } },
    });
    const plain = await s.request("/api/v1/statuses", {
      method: "POST",
      token: fay.token,
      json: { status: "Quote me" },
    });
    assert.equal(plain.status, 200);

    // The same browser context: still signed in as eve.
    const page = await chrome.context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("dialog", (d) => void d.accept());
    await page.goto(`${s.ctx.config.baseUrl}/web/compose`);
    // Fay's posts shown as any timeline shows them (loaded through the API as eve, rendered by the
    // shared renderer), and the account buttons a profile page renders.
    await page.evaluate(
      async ([ids, fayId]) => {
        const G = (window as any).Gannet;
        const list = document.querySelector("ul[data-compose-posted]");
        const statuses = await Promise.all(ids.map((id: string) => G.api("GET", `/api/v1/statuses/${id}`)));
        G.insertStatuses(list, statuses, "top");
        list?.insertAdjacentHTML(
          "beforebegin",
          `<p id="buttons"><button type="button" data-account-action="follow" data-account-id="${fayId}" data-acct="fay">Follow</button></p>`,
        );
      },
      [[poll.body.id, plain.body.id], fay.account.id] as const,
    );

    // Vote: the form becomes the results.
    const pollArticle = `article.status[data-id="${poll.body.id}"]`;
    await page.check(`${pollArticle} form.poll input[value="1"]`);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/v1/polls/${poll.body.poll.id}/votes`) && r.ok()),
      page.click(`${pollArticle} form.poll button[type=submit]`),
    ]);
    await page.waitForSelector(`${pollArticle} .poll.results li.own`);
    const voted = await s.request(`/api/v1/polls/${poll.body.poll.id}`, { token: eve.token });
    assert.deepEqual(voted.body.own_votes, [1]);

    // Quote.
    await page.click(`article.status[data-id="${plain.body.id}"] [data-action="quote"]`);
    assert.match((await page.textContent("#compose-context")) ?? "", /@fay/);
    await page.fill("#compose-text", "Quoting fay");
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/statuses") && r.request().method() === "POST" && r.ok()),
      page.click("#compose-submit"),
    ]);
    const [quoting] = await eveStatuses();
    assert.equal(quoting.quote?.quoted_status?.id, plain.body.id);

    // Follow, then unfollow, with the profile's button.
    const relationship = async () =>
      (await s.request(`/api/v1/accounts/relationships?id[]=${fay.account.id}`, { token: eve.token })).body[0];
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/accounts/${fay.account.id}/follow`) && r.ok()),
      page.click("#buttons [data-account-action]"),
    ]);
    await page.waitForSelector('#buttons [data-account-action="unfollow"]');
    assert.equal((await relationship()).following, true);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/accounts/${fay.account.id}/unfollow`) && r.ok()),
      page.click("#buttons [data-account-action]"),
    ]);
    await page.waitForSelector('#buttons [data-account-action="follow"]');
    assert.equal((await relationship()).following, false);

    // Report from the post's menu: a rule broken, a comment, the post attached.
    await page.click(`article.status[data-id="${plain.body.id}"] [data-action="more"]`);
    await page.click('.status-menu [role="menuitem"]:has-text("Report")');
    await page.waitForSelector("dialog.report-dialog[open]");
    await page.check('dialog.report-dialog input[name="category"][value="violation"]');
    await page.check(`dialog.report-dialog input[name="rule_ids"][value="${rule}"]`);
    await page.fill("dialog.report-dialog textarea", "Not kind");
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/reports") && r.ok()),
      page.click('dialog.report-dialog button[type="submit"]'),
    ]);
    await page.waitForSelector("dialog.report-dialog", { state: "detached" });
    const reports = (await s.request("/api/v1/admin/reports", { token: admin.token })).body;
    assert.equal(reports.length, 1);
    assert.equal(reports[0].target_account.id, fay.account.id);
    assert.equal(reports[0].category, "violation");
    assert.equal(reports[0].comment, "Not kind");
    assert.deepEqual(
      reports[0].statuses.map((x: { id: string }) => x.id),
      [plain.body.id],
    );
    assert.deepEqual(
      reports[0].rules.map((x: { id: string }) => x.id),
      [rule],
    );

    // Mute from the menu: fay's posts leave the page.
    await page.click(`article.status[data-id="${plain.body.id}"] [data-action="more"]`);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/accounts/${fay.account.id}/mute`) && r.ok()),
      page.click('.status-menu [role="menuitem"]:has-text("Mute")'),
    ]);
    await page.waitForSelector(`article.status[data-account-id="${fay.account.id}"]`, { state: "detached" });
    assert.equal((await relationship()).muting, true);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
