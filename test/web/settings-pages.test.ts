import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { findForm, type Page, textOf, WebClient } from "../helpers/web.ts";

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 4, background: "#3366ff" } })
    .png()
    .toBuffer();

/** Signs in through the sign-in form (its e-mail and password fields found by type). */
async function signIn(s: TestServer, u: TestUser): Promise<WebClient> {
  const web = new WebClient(s);
  const page = await web.get("/auth/sign_in");
  const form = findForm(page.doc, "/auth/sign_in");
  const login = form.querySelector("input[type=email], input[autocomplete=username]")?.getAttribute("name");
  const password = form.querySelector("input[type=password]")?.getAttribute("name");
  assert.ok(login && password, "sign-in form fields");
  const r = await web.submit(page, "/auth/sign_in", { [login]: u.user.email, [password]: u.password });
  assert.ok(r.status >= 300 && r.status < 400, `sign-in failed: ${r.status}`);
  return web;
}

/** Submits with a wrong CSRF token: the 422 "form has expired" page. */
async function assertCsrfRefused(web: WebClient, page: Page, action: string, values: Record<string, string> = {}) {
  const r = await web.submit(page, action, { ...values, authenticity_token: "forged" });
  assert.equal(r.status, 422, `${action} with a bad CSRF token`);
}

const saved = (page: Page) => textOf(page.doc, "p.notice");

describe("settings pages", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let web: WebClient;
  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    web = await signIn(s, alice);
  });
  after(() => s.close());

  const me = async (token = alice.token) => (await s.request("/api/v1/accounts/verify_credentials", { token })).body;

  it("require sign-in (back here afterwards); /settings leads to the profile", async () => {
    const anon = new WebClient(s);
    for (const path of [
      "/settings/profile",
      "/settings/preferences",
      "/filters",
      "/filters/new",
      "/settings/featured_tags",
      "/settings/followed_tags",
      "/oauth/authorized_applications",
      "/settings/applications",
      "/settings/applications/new",
    ]) {
      const r = await anon.get(path);
      assert.equal(r.status, 302, path);
      assert.equal(r.headers.get("location"), `/auth/sign_in?return_to=${encodeURIComponent(path)}`);
    }
    const post = await anon.request("/settings/profile", { method: "POST", form: { display_name: "x" } });
    assert.equal(post.status, 302);
    assert.match(post.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=/);
    const root = await web.get("/settings");
    assert.equal(root.status, 302);
    assert.equal(root.headers.get("location"), "/settings/profile");
  });

  it("profile: name, bio, fields, flags and an avatar, as verify_credentials shows; errors by their fields", async () => {
    let page = await web.get("/settings/profile");
    assert.equal(page.status, 200);
    assert.equal(page.doc.querySelector('nav a[aria-current="page"]')?.getAttribute("href"), "/settings/profile");
    assert.ok(page.doc.querySelector('script[src^="/assets/profile.js"]'));
    assert.ok(page.doc.querySelector("#avatar-preview"));

    await assertCsrfRefused(web, page, "/settings/profile", { display_name: "Forged" });
    assert.notEqual((await me()).display_name, "Forged");

    const avatar = new Blob([new Uint8Array(await png(600, 300))], { type: "image/png" });
    const r = await web.submit(
      page,
      "/settings/profile",
      {
        display_name: "Alice A.",
        note: "Hello, I like #birds",
        "fields_attributes[0][name]": "Pronouns",
        "fields_attributes[0][value]": "she/her",
        "fields_attributes[1][name]": "Site",
        "fields_attributes[1][value]": "https://alice.example",
        locked: "1",
        bot: "1",
        discoverable: "1",
      },
      { files: { avatar: Object.assign(avatar, { name: "me.png" }) } },
    );
    assert.equal(r.status, 303, r.body);
    page = await web.follow(r);
    assert.equal(saved(page), "Changes saved.");
    const acct = await me();
    assert.equal(acct.display_name, "Alice A.");
    assert.equal(acct.source.note, "Hello, I like #birds");
    assert.deepEqual(
      acct.source.fields.map((f: { name: string; value: string }) => [f.name, f.value]),
      [
        ["Pronouns", "she/her"],
        ["Site", "https://alice.example"],
      ],
    );
    assert.equal(acct.locked, true);
    assert.equal(acct.bot, true);
    assert.equal(acct.discoverable, true);
    assert.equal(acct.indexable, false);
    assert.doesNotMatch(acct.avatar, /missing/);
    // The page shows what is stored, the new avatar included.
    assert.equal(page.doc.querySelector("#display_name")?.getAttribute("value"), "Alice A.");
    assert.equal(
      new URL(page.doc.querySelector("#avatar-preview")?.getAttribute("src") ?? "", acct.avatar).href,
      acct.avatar,
    );
    assert.ok(page.doc.querySelector("#remove_avatar"));

    // A too-long bio and a file that is no image: 422, each error by its field, nothing changed.
    const bad = await web.submit(
      page,
      "/settings/profile",
      { display_name: "Changed" },
      { files: { header: Object.assign(new Blob(["not an image"], { type: "image/png" }), { name: "h.png" }) } },
    );
    assert.equal(bad.status, 422);
    assert.match(textOf(bad.doc, "#header-error"), /image/);
    assert.equal(bad.doc.querySelector("#header")?.getAttribute("aria-invalid"), "true");
    const tooLong = await web.submit(page, "/settings/profile", { note: "x".repeat(501) });
    assert.equal(tooLong.status, 422);
    assert.match(textOf(tooLong.doc, "#note-error"), /too long/);
    assert.equal(tooLong.doc.querySelector("#note")?.getAttribute("aria-describedby"), "note-hint note-error");
    assert.ok(tooLong.doc.querySelector('[role="alert"]'));
    assert.equal(tooLong.doc.querySelector("#note")?.text, "x".repeat(501), "what was typed is kept");
    assert.equal((await me()).display_name, "Alice A.");

    // Removing the avatar; unchecked boxes turn the flags off.
    const removed = await web.submit(page, "/settings/profile", { remove_avatar: "1", locked: [], bot: [] });
    assert.equal(removed.status, 303);
    const after = await me();
    assert.match(after.avatar, /missing/);
    assert.equal(after.locked, false);
    assert.equal(after.bot, false);
    assert.equal(after.display_name, "Alice A.");
  });

  it("preferences: posting defaults in verify_credentials' source, reading preferences, locale", async () => {
    let page = await web.get("/settings/preferences");
    assert.equal(page.status, 200);
    await assertCsrfRefused(web, page, "/settings/preferences", { privacy: "private" });
    assert.equal((await me()).source.privacy, "public");

    const r = await web.submit(page, "/settings/preferences", {
      privacy: "private",
      quote_policy: "followers",
      language: "de",
      sensitive: "1",
      locale: "en",
      "chosen_languages[]": ["de", "en"],
      expand_media: "show_all",
      expand_spoilers: "1",
    });
    assert.equal(r.status, 303, r.body);
    page = await web.follow(r);
    assert.equal(saved(page), "Changes saved.");
    const acct = await me();
    assert.equal(acct.source.privacy, "private");
    assert.equal(acct.source.sensitive, true);
    assert.equal(acct.source.language, "de");
    assert.equal(acct.source.quote_policy, "followers");
    const prefs = (await s.request("/api/v1/preferences", { token: alice.token })).body;
    assert.equal(prefs["reading:expand:media"], "show_all");
    assert.equal(prefs["reading:expand:spoilers"], true);
    const user = await s.ctx.repos.users.getById(alice.user.id);
    assert.deepEqual(user?.settings.chosenLanguages?.sort(), ["de", "en"]);
    assert.equal(page.doc.querySelector("#privacy_private")?.hasAttribute("checked"), true);
    assert.equal(page.doc.querySelector("#chosen_de")?.hasAttribute("checked"), true);
    // Not staff: no trends e-mail setting.
    assert.equal(page.doc.querySelector("#trends_emails"), null);

    const bad = await web.submit(page, "/settings/preferences", { privacy: "everyone", locale: "xx" });
    assert.equal(bad.status, 422);
    assert.match(textOf(bad.doc, "#privacy-error"), /not included/);
    assert.match(textOf(bad.doc, "#locale-error"), /not included/);
    assert.equal((await me()).source.privacy, "private");

    // Staff who review trends may turn the review e-mail off.
    const admin = await s.createUser("adminpref", { role: "Admin" });
    const adminWeb = await signIn(s, admin);
    const adminPage = await adminWeb.get("/settings/preferences");
    assert.equal(adminPage.doc.querySelector("#trends_emails")?.hasAttribute("checked"), true);
    const off = await adminWeb.submit(adminPage, "/settings/preferences", { trends_emails: [] });
    assert.equal(off.status, 303);
    const stored = await s.ctx.repos.users.getById(admin.user.id);
    assert.equal(stored?.settings.notificationEmails?.trends, false);
  });

  it("filters: create, edit, delete; another user's filter is not found", async () => {
    let page = await web.get("/filters/new");
    assert.equal(page.status, 200);
    await assertCsrfRefused(web, page, "/filters", { title: "Forged" });

    const blank = await web.submit(page, "/filters", { title: "", "context[]": [] });
    assert.equal(blank.status, 422);
    assert.match(textOf(blank.doc, "#title-error"), /can't be blank/);
    assert.match(textOf(blank.doc, "#context-error"), /can't be blank/);

    const r = await web.submit(page, "/filters", {
      title: "Spoilers",
      "context[]": ["home", "public"],
      filter_action: "hide",
      expires_in: "86400",
      "keywords_attributes[0][keyword]": "finale",
      "keywords_attributes[0][whole_word]": "1",
      "keywords_attributes[1][keyword]": "season",
      "keywords_attributes[1][whole_word]": [],
    });
    assert.equal(r.status, 303, r.body);
    page = await web.follow(r);
    assert.match(textOf(page.doc, ".settings-item"), /Spoilers/);
    let [filter] = (await s.request("/api/v2/filters", { token: alice.token })).body;
    assert.equal(filter.title, "Spoilers");
    assert.deepEqual(filter.context, ["home", "public"]);
    assert.equal(filter.filter_action, "hide");
    assert.ok(filter.expires_at);
    assert.deepEqual(
      filter.keywords.map((k: { keyword: string; whole_word: boolean }) => [k.keyword, k.whole_word]),
      [
        ["finale", true],
        ["season", false],
      ],
    );

    const edit = await web.get(`/filters/${filter.id}/edit`);
    assert.equal(edit.status, 200);
    assert.equal(edit.doc.querySelector("#title")?.getAttribute("value"), "Spoilers");
    const e = await web.submit(edit, `/filters/${filter.id}`, {
      title: "TV spoilers",
      expires_in: "",
      "keywords_attributes[1][_destroy]": "1",
      "keywords_attributes[2][keyword]": "cliffhanger",
      "keywords_attributes[2][whole_word]": "1",
    });
    assert.equal(e.status, 303, e.body);
    [filter] = (await s.request("/api/v2/filters", { token: alice.token })).body;
    assert.equal(filter.title, "TV spoilers");
    assert.equal(filter.expires_at, null);
    assert.deepEqual(filter.keywords.map((k: { keyword: string }) => k.keyword).sort(), ["cliffhanger", "finale"]);

    // Bob cannot see, change or delete Alice's filter.
    const bobWeb = await signIn(s, bob);
    assert.equal((await bobWeb.get(`/filters/${filter.id}/edit`)).status, 404);
    const bobList = await bobWeb.get("/filters");
    const bobCsrf = findForm(bobList.doc, "/auth/sign_out").querySelector("input[name=authenticity_token]");
    const token = bobCsrf?.getAttribute("value") ?? "";
    const up = await bobWeb.request(`/filters/${filter.id}`, {
      method: "POST",
      form: { authenticity_token: token, title: "Bob's", "context[]": "home" },
    });
    assert.equal(up.status, 404);
    const del = await bobWeb.request(`/filters/${filter.id}/delete`, {
      method: "POST",
      form: { authenticity_token: token },
    });
    assert.equal(del.status, 404);
    assert.equal((await s.request(`/api/v2/filters/${filter.id}`, { token: alice.token })).body.title, "TV spoilers");

    const list = await web.get("/filters");
    await assertCsrfRefused(web, list, `/filters/${filter.id}/delete`);
    const gone = await web.submit(list, `/filters/${filter.id}/delete`);
    assert.equal(gone.status, 303);
    assert.deepEqual((await s.request("/api/v2/filters", { token: alice.token })).body, []);
  });

  it("featured and followed hashtags: add and remove", async () => {
    let page = await web.get("/settings/featured_tags");
    assert.equal(page.status, 200);
    await assertCsrfRefused(web, page, "/settings/featured_tags", { name: "forged" });
    const bad = await web.submit(page, "/settings/featured_tags", { name: "not a tag!" });
    assert.equal(bad.status, 422);
    assert.ok(bad.doc.querySelector("#name-error"));

    const r = await web.submit(page, "/settings/featured_tags", { name: "#Birds" });
    assert.equal(r.status, 303, r.body);
    page = await web.follow(r);
    const featured = (await s.request("/api/v1/featured_tags", { token: alice.token })).body;
    assert.deepEqual(
      featured.map((f: { name: string }) => f.name),
      ["Birds"],
    );
    const removed = await web.submit(page, `/settings/featured_tags/${featured[0].id}/delete`);
    assert.equal(removed.status, 303);
    assert.deepEqual((await s.request("/api/v1/featured_tags", { token: alice.token })).body, []);

    page = await web.get("/settings/followed_tags");
    const f = await web.submit(page, "/settings/followed_tags", { name: "gannets" });
    assert.equal(f.status, 303, f.body);
    page = await web.follow(f);
    assert.match(textOf(page.doc, ".tag-list"), /#gannets/);
    const followed = (await s.request("/api/v1/followed_tags", { token: alice.token })).body;
    assert.deepEqual(
      followed.map((t: { name: string }) => t.name),
      ["gannets"],
    );
    await assertCsrfRefused(web, page, "/settings/followed_tags/unfollow");
    const u = await web.submit(page, "/settings/followed_tags/unfollow");
    assert.equal(u.status, 303);
    assert.deepEqual((await s.request("/api/v1/followed_tags", { token: alice.token })).body, []);
  });

  it("development: an app of one's own, its secret and token, which work with the API; others see nothing", async () => {
    let page = await web.get("/settings/applications/new");
    assert.equal(page.status, 200);
    await assertCsrfRefused(web, page, "/settings/applications", { name: "Forged" });
    const bad = await web.submit(page, "/settings/applications", {
      name: "",
      redirect_uris: "not a uri",
      "scopes[]": [],
    });
    assert.equal(bad.status, 422);
    assert.ok(bad.doc.querySelector("#name-error"));
    assert.ok(bad.doc.querySelector("#redirect_uris-error"));
    assert.ok(bad.doc.querySelector("#scopes-error"));

    const r = await web.submit(page, "/settings/applications", {
      name: "My bot",
      website: "https://bot.example",
      "scopes[]": ["read", "write:statuses"],
    });
    assert.equal(r.status, 303, r.body);
    const appPath = r.headers.get("location")?.split("?")[0] ?? "";
    page = await web.follow(r);
    const clientId = textOf(page.doc, "#client_id");
    const secret = textOf(page.doc, "#client_secret");
    const token = textOf(page.doc, "#access_token");
    assert.equal((await me(token)).username, "alice");
    // The same token on the next visit.
    assert.equal(textOf((await web.get(appPath)).doc, "#access_token"), token);
    // The client credentials work at the token endpoint.
    const grant = await s.request("/oauth/token", {
      form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret, scope: "read" },
    });
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    assert.match(textOf((await web.get("/settings/applications")).doc, "main table"), /My bot/);

    // Someone else's app is not found, for reading and for changing.
    const bobWeb = await signIn(s, bob);
    assert.equal((await bobWeb.get(appPath)).status, 404);
    assert.equal((await bobWeb.get(`${appPath}/edit`)).status, 404);
    assert.equal((await bobWeb.request(`${appPath}/delete`, { method: "POST", form: {} })).status, 404);

    // Regenerating: the old token stops working, a new one is shown.
    await assertCsrfRefused(web, page, `${appPath}/regenerate`);
    const regen = await web.submit(page, `${appPath}/regenerate`);
    page = await web.follow(regen);
    const token2 = textOf(page.doc, "#access_token");
    assert.notEqual(token2, token);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token })).status, 401);
    assert.equal((await me(token2)).username, "alice");

    // Editing the scopes makes a new token with the new scopes.
    const edit = await web.get(`${appPath}/edit`);
    const saved2 = await web.submit(edit, appPath, { name: "My bot 2", "scopes[]": ["profile"] });
    assert.equal(saved2.status, 303, saved2.body);
    page = await web.follow(saved2);
    assert.match(textOf(page.doc, "h1"), /My bot 2/);
    const token3 = textOf(page.doc, "#access_token");
    assert.notEqual(token3, token2);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: token2 })).status, 401);
    assert.equal((await me(token3)).username, "alice");

    const del = await web.submit(page, `${appPath}/delete`);
    assert.equal(del.status, 303);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: token3 })).status, 401);
    assert.equal((await web.get(appPath)).status, 404);
  });

  it("authorized apps: listed with their scopes; revoking ends the app's tokens", async () => {
    const carol = await s.createUser("carol");
    const carolWeb = await signIn(s, carol);
    const page = await carolWeb.get("/oauth/authorized_applications");
    assert.equal(page.status, 200);
    assert.match(textOf(page.doc, ".settings-item"), /Gannet command line/);
    const form = page.doc.querySelector('form[action^="/oauth/authorized_applications/"]');
    const action = form?.getAttribute("action") ?? "";
    await assertCsrfRefused(carolWeb, page, action);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: carol.token })).status, 200);
    const r = await carolWeb.submit(page, action);
    assert.equal(r.status, 303);
    const after = await carolWeb.follow(r);
    assert.equal(after.doc.querySelector(".settings-item"), null);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: carol.token })).status, 401);
    // Others' tokens of the same app still work.
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: bob.token })).status, 200);
  });
});
