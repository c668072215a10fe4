import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { alertText, findForm, type Page, signIn, textOf, type WebClient } from "../helpers/web.ts";

const png = async (w: number, h: number, background = "#3366ff") =>
  new Uint8Array(
    await sharp({ create: { width: w, height: h, channels: 4, background } })
      .png()
      .toBuffer(),
  );
const file = (data: Uint8Array, name: string) =>
  Object.assign(new Blob([data as Uint8Array<ArrayBuffer>], { type: "image/png" }), { name });

const notice = (page: Page) => textOf(page.doc, "p.notice");

describe("moderation panel: content and server", () => {
  let s: TestServer;
  let admin: TestUser;
  let mod: TestUser;
  let web: WebClient;
  let modWeb: WebClient;

  before(async () => {
    // Instance documents rebuilt on every request, so a saved setting shows at once.
    s = await startTestServer({ INSTANCE_STATS_CACHE_SECONDS: "0" });
    admin = await s.createUser("boss", { role: "Admin", scopes: "read write admin:read admin:write" });
    mod = await s.createUser("moddy", { role: "Moderator" });
    web = await signIn(s, admin);
    modWeb = await signIn(s, mod);
  });
  after(() => s.close());

  /** The action log entries on one kind of target, through the admin API. */
  async function logged(targetType: string): Promise<{ action: string; account: { id: string } | null }[]> {
    const r = await s.request(`/api/v1/admin/action_logs?target_type=${encodeURIComponent(targetType)}`, {
      token: admin.token,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  }

  it("refuses a Moderator the Admin-only pages (403), and a forged form (422)", async () => {
    for (const path of ["/admin/settings", "/admin/roles", "/admin/custom_emojis", "/admin/rules"]) {
      const r = await modWeb.get(path);
      assert.equal(r.status, 403, path);
    }
    const page = await web.get("/admin/settings");
    const posted = await modWeb.submit(page, "/admin/settings", { site_title: "Taken over" });
    assert.equal(posted.status, 403);
    const forged = await web.submit(page, "/admin/settings", { authenticity_token: "forged", site_title: "Forged" });
    assert.equal(forged.status, 422);
    const rules = await web.get("/admin/rules");
    const r = await web.submit(rules, "/admin/rules", { authenticity_token: "forged", text: "No" });
    assert.equal(r.status, 422);
    assert.notEqual((await s.request("/api/v2/instance")).body.title, "Forged");
  });

  it("saves the server settings, shown on /api/v2/instance and /about", async () => {
    const page = await web.get("/admin/settings");
    assert.equal(page.status, 200);
    assert.equal(textOf(page.doc, "h1"), "Server settings");
    const saved = await web.submit(page, "/admin/settings", {
      site_title: "Panel Test Server",
      site_short_description: "A server set up from the panel.",
      site_contact_username: "boss",
      site_contact_email: "owner@example.com",
      registrations_mode: "approved",
      require_invite_text: "1",
      show_domain_blocks: "all",
      show_domain_blocks_rationale: "users",
      local_live_feed_access: "authenticated",
      remote_live_feed_access: "disabled",
      min_age: "16",
      status_page_url: "https://status.example.com",
    });
    assert.equal(saved.status, 303);
    assert.match(notice(await web.follow(saved)), /saved/);

    const v2 = (await s.request("/api/v2/instance")).body;
    assert.equal(v2.title, "Panel Test Server");
    assert.equal(v2.description, "A server set up from the panel.");
    assert.equal(v2.contact.email, "owner@example.com");
    assert.equal(v2.contact.account.username, "boss");
    assert.equal(v2.registrations.enabled, true);
    assert.equal(v2.registrations.approval_required, true);
    assert.equal(v2.registrations.reason_required, true);
    assert.equal(v2.registrations.min_age, 16);
    assert.equal(v2.configuration.urls.status, "https://status.example.com");
    assert.equal(v2.configuration.timelines_access.live_feeds.local, "authenticated");
    assert.equal(v2.configuration.timelines_access.live_feeds.remote, "disabled");
    // Moderated servers are now published to anyone.
    assert.equal((await s.request("/api/v1/instance/domain_blocks")).status, 200);
    // The local live feed is for signed-in users only now.
    assert.notEqual((await s.request("/api/v1/timelines/public?local=true")).status, 200);
    const about = await web.get("/about");
    assert.match(about.body, /Panel Test Server/);
    assert.match(about.body, /A server set up from the panel\./);

    // A contact that does not exist is refused, and nothing is saved.
    const again = await web.get("/admin/settings");
    const bad = await web.submit(again, "/admin/settings", { site_contact_username: "nobody_here", site_title: "X" });
    assert.equal(bad.status, 422);
    assert.match(alertText(bad.doc) ?? "", /nobody_here/);
    assert.equal((await s.request("/api/v2/instance")).body.title, "Panel Test Server");

    // Closed sign-ups show everywhere.
    const closed = await web.submit(again, "/admin/settings", { registrations_mode: "none" });
    assert.equal(closed.status, 303);
    const v2b = (await s.request("/api/v2/instance")).body;
    assert.equal(v2b.registrations.enabled, false);
    const signUp = await s.request("/api/v1/accounts", {
      token: await s.appToken("read write"),
      form: { username: "late", email: "late@example.com", password: "long enough pw 1", agreement: "true" },
    });
    assert.equal(signUp.status, 403);
    const badAge = await web.submit(await web.get("/admin/settings"), "/admin/settings", { min_age: "-3" });
    assert.equal(badAge.status, 422);
    const reopened = await web.submit(await web.get("/admin/settings"), "/admin/settings", {
      registrations_mode: "open",
      min_age: "",
      local_live_feed_access: "public",
      remote_live_feed_access: "public",
    });
    assert.equal(reopened.status, 303);
    assert.equal((await s.request("/api/v2/instance")).body.registrations.approval_required, false);

    const log = await logged("Form::AdminSettings");
    assert.ok(log.length >= 3);
    assert.ok(log.every((e) => e.action === "update" && e.account?.id === admin.account.id));
  });

  it("uploads the banner and publishes the texts and dated terms", async () => {
    const page = await web.get("/admin/settings");
    const up = await web.submit(
      page,
      "/admin/settings/thumbnail",
      { thumbnail_description: "Gannets on a cliff" },
      { files: { thumbnail: file(await png(1600, 600), "banner.png") } },
    );
    assert.equal(up.status, 303, up.body);
    const v2 = (await s.request("/api/v2/instance")).body;
    assert.match(v2.thumbnail.url, /site_uploads\/thumbnail\//);
    assert.equal(typeof v2.thumbnail.blurhash, "string");
    const about = await web.get("/about");
    const banner = about.doc.querySelector("img.site-banner");
    assert.equal(banner?.getAttribute("alt"), "Gannets on a cliff");
    assert.match(banner?.getAttribute("src") ?? "", /site_uploads\/thumbnail\//);
    const image = await fetch(v2.thumbnail.url);
    assert.equal(image.status, 200);
    const size = await sharp(new Uint8Array(await image.arrayBuffer())).metadata();
    assert.deepEqual([size.width, size.height], [1200, 630]);

    const notImage = await web.submit(
      await web.get("/admin/settings"),
      "/admin/settings/thumbnail",
      {},
      { files: { thumbnail: Object.assign(new Blob(["not an image"], { type: "image/png" }), { name: "x.png" }) } },
    );
    assert.equal(notImage.status, 422);

    const texts = await web.submit(await web.get("/admin/settings"), "/admin/settings/texts", {
      site_extended_description: "<p>We watch <strong>seabirds</strong>.</p>",
      site_terms: "<p>Our own privacy policy.</p>",
    });
    assert.equal(texts.status, 303);
    assert.match((await s.request("/api/v1/instance/extended_description")).body.content, /seabirds/);
    assert.match((await s.request("/api/v1/instance/privacy_policy")).body.content, /Our own privacy policy/);
    assert.match((await web.get("/about")).body, /seabirds/);

    const today = new Date().toISOString().slice(0, 10);
    const terms = await web.submit(await web.get("/admin/settings"), "/admin/settings/terms", {
      effective_date: today,
      text: "<p>Be kind to birds.</p>",
    });
    assert.equal(terms.status, 303);
    const tos = await s.request("/api/v1/instance/terms_of_service");
    assert.equal(tos.status, 200);
    assert.equal(tos.body.effective_date, today);
    assert.match(tos.body.content, /Be kind to birds/);
    const badDate = await web.submit(await web.get("/admin/settings"), "/admin/settings/terms", {
      effective_date: "2025-02-30",
      text: "x",
    });
    assert.equal(badDate.status, 422);
    assert.equal((await logged("TermsOfService"))[0]?.action, "publish");

    const removed = await web.submit(await web.get("/admin/settings"), "/admin/settings/thumbnail/delete");
    assert.equal(removed.status, 303);
    assert.doesNotMatch((await s.request("/api/v2/instance")).body.thumbnail.url, /site_uploads/);
  });

  it("writes, publishes, edits, unpublishes and deletes announcements", async () => {
    const list = await web.get("/admin/announcements");
    assert.equal(list.status, 200);
    const form = await web.get("/admin/announcements/new");
    // Mastodon's rule: the end may not come before the start.
    const backwards = await web.submit(form, "/admin/announcements", {
      text: "Maintenance",
      starts_at: "2030-01-02T10:00",
      ends_at: "2030-01-01T10:00",
    });
    assert.equal(backwards.status, 422);
    assert.match(alertText(backwards.doc) ?? "", /before/);
    const onlyStart = await web.submit(form, "/admin/announcements", { text: "Half", starts_at: "2030-01-02T10:00" });
    assert.equal(onlyStart.status, 422);

    const created = await web.submit(form, "/admin/announcements", {
      text: "Maintenance on Sunday",
      all_day: "1",
      starts_at: "2030-01-05T10:30",
      ends_at: "2030-01-06T18:00",
      publish: "1",
    });
    assert.equal(created.status, 303);
    let api = (await s.request("/api/v1/announcements", { token: admin.token })).body;
    const a = api.find((x: { content: string }) => x.content.includes("Maintenance on Sunday"));
    assert.ok(a, JSON.stringify(api));
    assert.equal(a.all_day, true);
    // All day: dates only.
    assert.equal(a.starts_at, "2030-01-05T00:00:00.000Z");
    assert.equal(a.ends_at, "2030-01-06T00:00:00.000Z");

    const edit = await web.get(`/admin/announcements/${a.id}/edit`);
    assert.equal(edit.status, 200);
    const changed = await web.submit(edit, `/admin/announcements/${a.id}`, {
      text: "Maintenance moved to Monday",
      all_day: [],
      starts_at: "2030-01-07T08:00",
      ends_at: "2030-01-07T09:30",
    });
    assert.equal(changed.status, 303);
    api = (await s.request("/api/v1/announcements", { token: admin.token })).body;
    const b = api.find((x: { id: string }) => x.id === a.id);
    assert.match(b.content, /Monday/);
    assert.equal(b.all_day, false);
    assert.equal(b.starts_at, "2030-01-07T08:00:00.000Z");

    const page = await web.get("/admin/announcements");
    const unpublished = await web.submit(page, `/admin/announcements/${a.id}/unpublish`);
    assert.equal(unpublished.status, 303);
    api = (await s.request("/api/v1/announcements", { token: admin.token })).body;
    assert.ok(!api.some((x: { id: string }) => x.id === a.id));
    const published = await web.submit(await web.get("/admin/announcements"), `/admin/announcements/${a.id}/publish`);
    assert.equal(published.status, 303);
    assert.ok(
      (await s.request("/api/v1/announcements", { token: admin.token })).body.some(
        (x: { id: string }) => x.id === a.id,
      ),
    );
    const deleted = await web.submit(await web.get("/admin/announcements"), `/admin/announcements/${a.id}/delete`);
    assert.equal(deleted.status, 303);
    assert.equal((await web.get(`/admin/announcements/${a.id}/edit`)).status, 404);
    const actions = (await logged("Announcement")).map((e) => e.action);
    for (const action of ["create", "update", "unpublish", "publish", "destroy"])
      assert.ok(actions.includes(action), action);
  });

  it("uploads, categorises, disables, copies and deletes custom emojis", async () => {
    const page = await web.get("/admin/custom_emojis");
    assert.equal(page.status, 200);
    const up = await web.submit(
      page,
      "/admin/custom_emojis",
      { shortcode: "gannet", category: "Birds" },
      { index: 1, files: { image: file(await png(64, 64), "gannet.png") } },
    );
    assert.equal(up.status, 303, up.body);
    const listed = async () =>
      (await s.request("/api/v1/custom_emojis")).body as { shortcode: string; category: string }[];
    assert.equal((await listed()).find((e) => e.shortcode === "gannet")?.category, "Birds");
    const taken = await web.submit(
      page,
      "/admin/custom_emojis",
      { shortcode: "gannet" },
      { index: 1, files: { image: file(await png(64, 64), "gannet.png") } },
    );
    assert.equal(taken.status, 422);

    let list = await web.get("/admin/custom_emojis");
    const id = list.doc.querySelector("tr[data-id]")?.getAttribute("data-id") ?? "";
    assert.ok(id);
    const recat = await web.submit(list, `/admin/custom_emojis/${id}`, {
      category: "Seabirds",
      visible_in_picker: "1",
    });
    assert.equal(recat.status, 303);
    assert.equal((await listed()).find((e) => e.shortcode === "gannet")?.category, "Seabirds");
    const off = await web.submit(list, `/admin/custom_emojis/${id}/disable`);
    assert.equal(off.status, 303);
    assert.ok(!(await listed()).some((e) => e.shortcode === "gannet"));
    const on = await web.submit(await web.get("/admin/custom_emojis"), `/admin/custom_emojis/${id}/enable`);
    assert.equal(on.status, 303);
    assert.ok((await listed()).some((e) => e.shortcode === "gannet"));

    // A remote server's emoji, its image already cached here.
    const remoteId = s.ctx.ids.next();
    const key = `cache/custom_emojis/${remoteId}/puffin.png`;
    await s.ctx.blobs.put(key, await png(48, 48, "#ff6600"), "image/png");
    const now = new Date().toISOString();
    await s.ctx.repos.customEmojis.insert({
      id: remoteId,
      shortcode: "puffin",
      domain: "birds.example",
      image_key: key,
      image_remote_url: "https://birds.example/emoji/puffin.png",
      image_content_type: "image/png",
      uri: "https://birds.example/emoji/1",
      visible_in_picker: false,
      disabled: false,
      created_at: now,
      updated_at: now,
    });
    list = await web.get("/admin/custom_emojis?origin=remote&domain=birds.example");
    assert.equal(list.doc.querySelectorAll("tr[data-id]").length, 1);
    assert.match(textOf(list.doc, "tbody"), /puffin/);
    const local = await web.get("/admin/custom_emojis?origin=local");
    assert.doesNotMatch(textOf(local.doc, "tbody"), /puffin/);
    // Part of a shortcode, in any case; `_` and `%` are plain characters, not wildcards.
    const found = await web.get("/admin/custom_emojis?origin=all&shortcode=UFF");
    assert.match(textOf(found.doc, "tbody"), /puffin/);
    assert.doesNotMatch(textOf(found.doc, "tbody"), /gannet/);
    const wildcard = await web.get("/admin/custom_emojis?origin=all&shortcode=p_ffin");
    assert.equal(wildcard.doc.querySelectorAll("tr[data-id]").length, 0);
    const copied = await web.submit(list, `/admin/custom_emojis/${remoteId}/copy`);
    assert.equal(copied.status, 303, copied.body);
    assert.ok((await listed()).some((e) => e.shortcode === "puffin"));

    const del = await web.submit(await web.get("/admin/custom_emojis"), `/admin/custom_emojis/${id}/delete`);
    assert.equal(del.status, 303);
    assert.ok(!(await listed()).some((e) => e.shortcode === "gannet"));
    const actions = (await logged("CustomEmoji")).map((e) => e.action);
    for (const action of ["create", "update", "disable", "enable", "copy", "destroy"])
      assert.ok(actions.includes(action), action);
  });

  it("adds, edits, reorders and deletes server rules", async () => {
    const rules = async () =>
      (await s.request("/api/v1/instance/rules")).body as { id: string; text: string; hint: string }[];
    for (const text of ["Be kind", "No spam"]) {
      const r = await web.submit(await web.get("/admin/rules"), "/admin/rules", { text, hint: `${text}, please.` });
      assert.equal(r.status, 303);
    }
    const blank = await web.submit(await web.get("/admin/rules"), "/admin/rules", { text: "  " });
    assert.equal(blank.status, 422);
    let list = await rules();
    assert.deepEqual(
      list.map((r) => r.text),
      ["Be kind", "No spam"],
    );
    const page = await web.get("/admin/rules");
    const spam = list[1].id;
    const up = await web.submit(page, `/admin/rules/${spam}/move`, {}, { index: 0 });
    assert.equal(up.status, 303);
    list = await rules();
    assert.deepEqual(
      list.map((r) => r.text),
      ["No spam", "Be kind"],
    );
    const edit = await web.get(`/admin/rules/${spam}/edit`);
    const saved = await web.submit(edit, `/admin/rules/${spam}`, { text: "No spam or ads", hint: "" });
    assert.equal(saved.status, 303);
    assert.equal((await rules())[0].text, "No spam or ads");
    const gone = await web.submit(await web.get("/admin/rules"), `/admin/rules/${spam}/delete`);
    assert.equal(gone.status, 303);
    assert.deepEqual(
      (await rules()).map((r) => r.text),
      ["Be kind"],
    );
    assert.ok(findForm((await web.get("/admin/rules")).doc, "/admin/rules"));
    const actions = (await logged("Rule")).map((e) => e.action);
    for (const action of ["create", "update", "destroy"]) assert.ok(actions.includes(action), action);
  });

  it("creates, edits and deletes roles below the staff member's own", async () => {
    const page = await web.get("/admin/roles");
    assert.equal(page.status, 200);
    assert.match(textOf(page.doc, "tbody"), /Moderator/);
    const form = await web.get("/admin/roles/new");
    const created = await web.submit(form, "/admin/roles", {
      name: "Helper",
      position: "5",
      color: "#336699",
      highlighted: "1",
      "permissions[]": ["manage_reports", "view_dashboard"],
    });
    assert.equal(created.status, 303, created.body);
    const roles = async () =>
      (await s.request("/api/v1/admin/roles", { token: admin.token })).body as {
        id: string;
        name: string;
        permissions: string;
        color: string;
        highlighted: boolean;
      }[];
    const helper = (await roles()).find((r) => r.name === "Helper");
    assert.ok(helper);
    assert.equal(Number(helper.permissions), 0x10 | 0x8);
    assert.equal(helper.color, "#336699");
    assert.equal(helper.highlighted, true);

    // At or above the Admin's own position (100): refused.
    const above = await web.submit(form, "/admin/roles", { name: "Boss", position: "100" });
    assert.equal(above.status, 422);
    assert.match(alertText(above.doc) ?? "", /[Pp]osition/);
    // The administrator permission is not the Admin role's to give.
    const admin1 = await web.submit(form, "/admin/roles", {
      name: "Root",
      position: "1",
      "permissions[]": "administrator",
    });
    assert.equal(admin1.status, 422);

    const edit = await web.get(`/admin/roles/${helper.id}/edit`);
    const saved = await web.submit(edit, `/admin/roles/${helper.id}`, {
      name: "Helpers",
      "permissions[]": ["manage_reports"],
      highlighted: [],
    });
    assert.equal(saved.status, 303, saved.body);
    const after1 = (await roles()).find((r) => r.id === helper.id);
    assert.equal(after1?.name, "Helpers");
    assert.equal(Number(after1?.permissions), 0x10);
    assert.equal(after1?.highlighted, false);

    // The Owner role ranks above: it cannot be deleted from here.
    const owner = (await roles()).find((r) => r.name === "Owner");
    assert.ok(owner);
    const rolesPage = await web.get("/admin/roles");
    assert.equal(rolesPage.doc.querySelectorAll(`form[action="/admin/roles/${owner.id}/delete"]`).length, 0);
    const csrf = rolesPage.doc.querySelector("input[name=authenticity_token]")?.getAttribute("value") ?? "";
    const refused = await web.request(`/admin/roles/${owner.id}/delete`, {
      method: "POST",
      form: { authenticity_token: csrf },
    });
    assert.equal(refused.status, 422);
    assert.ok((await roles()).some((r) => r.id === owner.id));
    const del = await web.submit(await web.get("/admin/roles"), `/admin/roles/${helper.id}/delete`);
    assert.equal(del.status, 303);
    assert.ok(!(await roles()).some((r) => r.id === helper.id));
    const actions = (await logged("UserRole")).map((e) => e.action);
    for (const action of ["create", "update", "destroy"]) assert.ok(actions.includes(action), action);
  });

  it("reviews trending hashtags, those waiting for review first", async () => {
    const tagIds: Record<string, string> = {};
    for (const name of ["seabirdwatch", "gulls"]) {
      const posted = await s.request("/api/v1/statuses", {
        token: admin.token,
        form: { status: `Look at the #${name} today`, visibility: "public" },
      });
      assert.equal(posted.status, 200);
      tagIds[name] = (await s.request(`/api/v1/tags/${name}`, { token: admin.token })).body.id;
      assert.ok(tagIds[name]);
    }
    for (const kind of ["tags", "links", "statuses"]) {
      assert.equal((await web.get(`/admin/trends?kind=${kind}`)).status, 200, kind);
    }
    assert.equal((await modWeb.get("/admin/trends")).status, 403);

    // #gulls already decided on and scoring higher; #seabirdwatch waiting: it comes first.
    const csrf = (await web.get("/admin/settings")).doc
      .querySelector("input[name=authenticity_token]")
      ?.getAttribute("value");
    assert.ok(csrf);
    const first = await web.request(`/admin/trends/tags/${tagIds.gulls}/approve`, {
      method: "POST",
      form: { authenticity_token: csrf },
    });
    assert.equal(first.status, 303);
    assert.match(notice(await web.follow(first)), /Approved/);
    const now = new Date().toISOString();
    await s.ctx.db
      .insertInto("trend_tags")
      .values([
        { tag_id: tagIds.gulls, score: 10, rank: 1, allowed: true, updated_at: now },
        { tag_id: tagIds.seabirdwatch, score: 5, rank: 2, allowed: false, updated_at: now },
      ])
      .execute();
    const page = await web.get("/admin/trends?kind=tags");
    const rows = page.doc.querySelectorAll("tbody tr");
    assert.deepEqual(
      rows.map((r) => r.getAttribute("data-id")),
      [tagIds.seabirdwatch, tagIds.gulls],
    );
    assert.match(rows[0].text, /Waiting for review/);
    const approve = await web.submit(page, `/admin/trends/tags/${tagIds.seabirdwatch}/approve`);
    assert.equal(approve.status, 303);
    const admin1 = await s.request(`/api/v1/admin/tags/${tagIds.seabirdwatch}`, { token: admin.token });
    assert.equal(admin1.body.trendable, true);
    assert.equal(admin1.body.requires_review, false);
    const reject = await web.submit(await web.get("/admin/trends"), `/admin/trends/tags/${tagIds.gulls}/reject`);
    assert.equal(reject.status, 303);
    assert.equal((await s.request(`/api/v1/admin/tags/${tagIds.gulls}`, { token: admin.token })).body.trendable, false);
    const forged = await web.request(`/admin/trends/tags/${tagIds.gulls}/approve`, {
      method: "POST",
      form: { authenticity_token: "forged" },
    });
    assert.equal(forged.status, 422);
    const unknown = await web.request("/admin/trends/tags/999999/approve", {
      method: "POST",
      form: { authenticity_token: csrf },
    });
    assert.equal(unknown.status, 404);
    const actions = (await logged("Tag")).map((e) => e.action);
    assert.ok(actions.includes("approve") && actions.includes("reject"));

    // A trending post, waiting: shown with its text and author, approved from the page.
    const post = await s.request("/api/v1/statuses", {
      token: admin.token,
      form: { status: "A gannet dives for fish", visibility: "public" },
    });
    await s.ctx.db
      .insertInto("trend_statuses")
      .values({
        status_id: post.body.id,
        account_id: admin.account.id,
        score: 3,
        rank: 1,
        allowed: false,
        updated_at: now,
      })
      .execute();
    const posts = await web.get("/admin/trends?kind=statuses");
    const row = posts.doc.querySelector(`tr[data-id="${post.body.id}"]`);
    assert.ok(row, posts.body);
    assert.match(row.text, /A gannet dives for fish/);
    assert.match(row.text, /@boss/);
    assert.match(row.text, /Waiting for review/);
    const ok = await web.submit(posts, `/admin/trends/statuses/${post.body.id}/approve`);
    assert.equal(ok.status, 303);
    const reviewed = (await s.request("/api/v1/admin/trends/statuses", { token: admin.token })).body;
    assert.equal(reviewed.find((x: { id: string }) => x.id === post.body.id)?.requires_review, false);
    assert.equal((await logged("Status"))[0]?.action, "approve");
  });
});
