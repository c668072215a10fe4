import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { LIVE_FEED_SETTING } from "../../src/services/feeds/live-feed-access.ts";
import { DOMAIN_BLOCKS_SETTING } from "../../src/services/instance/public-domain-blocks.ts";
import { SITE_SETTING } from "../../src/services/instance/site-settings.ts";
import { publishTermsOfService } from "../../src/services/instance/site-texts.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { type Page, textOf, WebClient } from "../helpers/web.ts";

/** The headings of a page, in order, as "h1 text" strings. */
const headings = (page: Page) =>
  page.doc.querySelectorAll("h1, h2, h3, h4, h5, h6").map((h) => `${h.tagName.toLowerCase()} ${h.text.trim()}`);
const mainText = (page: Page) => textOf(page.doc, "main");
const hrefs = (page: Page, selector = "main a") =>
  page.doc.querySelectorAll(selector).map((a) => a.getAttribute("href"));

describe("public site pages", () => {
  let s: TestServer;
  let owner: TestUser;
  let alice: TestUser;
  let admin: TestUser;
  /** A browser signed in as alice. */
  let signedIn: WebClient;

  const post = async (user: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: user.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const setting = (key: string, value: unknown) => s.ctx.repos.settings.set(key, value);

  before(async () => {
    s = await startTestServer();
    owner = await s.createUser("owner", { role: "Owner" });
    alice = await s.createUser("alice");
    // Counted in the about page's numbers (which are cached as the instance API's).
    await s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "counted" } });
    admin = await s.createUser("adm", { role: "Admin", scopes: "read write admin:read admin:write" });
    signedIn = new WebClient(s);
    const form = await signedIn.get("/auth/sign_in");
    const done = await signedIn.submit(form, "/auth/sign_in", { email: "alice@example.com", password: alice.password });
    assert.equal(done.status, 302, done.body);
  });
  after(() => s.close());

  it("/ for visitors: what the server is, how to join and sign in, cacheable for a minute", async () => {
    const page = await new WebClient(s).get("/");
    assert.equal(page.status, 200);
    assert.equal(page.doc.querySelector("html")?.getAttribute("lang"), "en");
    assert.equal(textOf(page.doc, "h1"), s.ctx.config.siteTitle);
    assert.ok(page.doc.querySelector('meta[name="description"]')?.getAttribute("content"));
    assert.ok(page.doc.querySelector('meta[name="viewport"]'));
    const links = hrefs(page);
    for (const l of ["/auth/sign_up", "/auth/sign_in", "/about", "/public/local", "https://elk.zone/"]) {
      assert.ok(links.includes(l), `no link to ${l}`);
    }
    assert.equal(page.headers.get("cache-control"), "public, max-age=60");
    assert.match(page.headers.get("vary") ?? "", /Cookie/);
    assert.equal(page.doc.querySelector('meta[name="csrf-token"]'), null);
    assert.deepEqual(
      headings(page).map((h) => h.slice(0, 2)),
      ["h1", "h2", "h2", "h2"],
    );
  });

  it("/ for a signed-in user: a welcome page with their profile, settings and apps, never cached", async () => {
    const page = await signedIn.get("/");
    assert.equal(page.status, 200);
    assert.match(textOf(page.doc, "h1"), /Welcome, alice/);
    const links = hrefs(page);
    for (const l of ["/@alice", "/settings", "/about", "https://tusky.app/"]) assert.ok(links.includes(l), `no ${l}`);
    assert.ok(!links.includes("/auth/sign_up"));
    assert.equal(page.headers.get("cache-control"), "no-store");
  });

  it("/about: name, banner with alt text, rules, contact, counts, sanitised extended description, apps", async () => {
    await s.ctx.repos.settings.addRule({
      id: "1",
      text: "Be kind",
      hint: "No harassment",
      position: 0,
      at: new Date().toISOString(),
    });
    await s.ctx.repos.settings.addRule({
      id: "2",
      text: "No spam",
      hint: "",
      position: 1,
      at: new Date().toISOString(),
    });
    await setting(SITE_SETTING.shortDescription, "A small server for testing");
    await setting(SITE_SETTING.contactEmail, "admin@example.com");
    await setting(SITE_SETTING.extendedDescription, {
      content:
        '<h1>Our story</h1><p onclick="x()">Hello <a href="javascript:alert(1)">bad</a> <a href="https://example.com/">good</a></p><script>alert(1)</script>',
      updatedAt: "2026-01-01T00:00:00Z",
    });
    const page = await new WebClient(s).get("/about");
    assert.equal(page.status, 200);
    const text = mainText(page);
    assert.match(text, /A small server for testing/);
    assert.equal(page.doc.querySelector("img.site-banner")?.getAttribute("alt"), `Banner of ${s.ctx.config.siteTitle}`);
    assert.deepEqual(
      page.doc.querySelectorAll(".site-rules li").map((li) => li.text.replace(/\s+/g, " ").trim()),
      ["Be kind No harassment", "No spam"],
    );
    assert.ok(hrefs(page).includes("/@owner"), "the Owner is the contact account");
    assert.ok(hrefs(page).includes("mailto:admin@example.com"));
    assert.equal(textOf(page.doc, "#stats-users"), "3");
    assert.equal(textOf(page.doc, "#stats-posts"), "1");
    // The operator's HTML: its h1 under the page's h2, no script, no handler, no javascript: link.
    const extended = page.doc.querySelector(".site-text");
    assert.ok(extended);
    assert.equal(extended.querySelector("h3")?.text, "Our story");
    assert.doesNotMatch(extended.toString(), /script|onclick|javascript/);
    assert.ok(extended.querySelector('a[href="https://example.com/"]'));
    assert.equal(page.doc.querySelectorAll("h1").length, 1);
    assert.match(text, /Mastodon for Android/);
    assert.ok(hrefs(page).includes("/privacy-policy"));
    assert.match(page.doc.querySelector("title")?.text ?? "", /^About - /);

    await setting(SITE_SETTING.thumbnail, { url: "https://cdn.example/banner.png", description: "Waves at dawn" });
    const own = await new WebClient(s).get("/about");
    const img = own.doc.querySelector("img.site-banner");
    assert.equal(img?.getAttribute("src"), "https://cdn.example/banner.png");
    assert.equal(img?.getAttribute("alt"), "Waves at dawn");
    assert.equal((await s.request("/about/more")).headers.get("location"), "/about");
  });

  it("/about: moderated servers as show_domain_blocks and show_domain_blocks_rationale allow, and the API agrees", async () => {
    for (const [domain, extra] of [
      ["spam.example", { severity: "suspend", public_comment: "Spam factory" }],
      ["loud.example", { severity: "silence" }],
      ["secret-server.example", { severity: "suspend", obfuscate: "true" }],
      ["quiet.example", { severity: "noop" }],
    ] as const) {
      const r = await s.request("/api/v1/admin/domain_blocks", {
        method: "POST",
        token: admin.token,
        json: { domain, ...extra },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const anonymous = new WebClient(s);
    const section = (page: Page) => page.doc.querySelector("#moderation");

    // Default (disabled): shown to nobody; the API answers 404 as Mastodon's.
    assert.equal(section(await anonymous.get("/about")), null);
    assert.equal(section(await signedIn.get("/about")), null);
    assert.equal((await s.request("/api/v1/instance/domain_blocks")).status, 404);

    await setting(DOMAIN_BLOCKS_SETTING.show, "users");
    assert.equal(section(await anonymous.get("/about")), null);
    const forUser = await signedIn.get("/about");
    assert.ok(section(forUser));
    const rows = forUser.doc
      .querySelectorAll(".site-domain-blocks tbody tr")
      .map((tr) => tr.querySelector("td")?.text.trim());
    // Strictest first, then by domain; the obfuscated one starred; a no-op block without media rejection left out.
    assert.equal(rows.length, 3);
    assert.equal(rows[0]?.startsWith("sec"), true);
    assert.match(rows[0] ?? "", /\*/);
    assert.doesNotMatch(rows[0] ?? "", /secret-server/);
    assert.deepEqual(rows.slice(1), ["spam.example", "loud.example"]);
    assert.doesNotMatch(mainText(forUser), /Spam factory/);
    assert.equal(forUser.headers.get("cache-control"), "no-store");
    assert.equal((await s.request("/api/v1/instance/domain_blocks")).status, 404);
    const api = await s.request("/api/v1/instance/domain_blocks", { token: alice.token });
    assert.equal(api.status, 200);
    assert.deepEqual(
      api.body.map((b: { domain: string; severity: string }) => b.severity),
      ["suspend", "suspend", "silence"],
    );
    assert.equal(api.body[1].comment, undefined);

    await setting(DOMAIN_BLOCKS_SETTING.show, "all");
    await setting(DOMAIN_BLOCKS_SETTING.rationale, "all");
    const forAll = await anonymous.get("/about");
    assert.ok(section(forAll));
    assert.match(mainText(forAll), /Spam factory/);
    const open = await s.request("/api/v1/instance/domain_blocks");
    assert.equal(open.status, 200);
    assert.equal(open.body.find((b: { domain: string }) => b.domain === "spam.example")?.comment, "Spam factory");
    assert.match(open.headers.get("cache-control") ?? "", /public/);
  });

  it("registration mode: open, approval (with reason), closed with the operator's message", async () => {
    const config = s.ctx.config as { registrationsMode: string };
    const saved = config.registrationsMode;
    const block = async () => {
      const page = await new WebClient(s).get("/about");
      const div = page.doc.querySelector(".site-registrations");
      assert.ok(div);
      return {
        mode: div.getAttribute("data-mode"),
        text: div.text.replace(/\s+/g, " "),
        links: hrefs(page, ".site-registrations a"),
      };
    };
    try {
      config.registrationsMode = "open";
      const open = await block();
      assert.equal(open.mode, "open");
      assert.match(open.text, /Anyone can create an account/);
      assert.deepEqual(open.links, ["/auth/sign_up", "/auth/sign_in"]);

      config.registrationsMode = "approved";
      await setting(SITE_SETTING.requireInviteText, true);
      const approval = await block();
      assert.equal(approval.mode, "approval");
      assert.match(approval.text, /moderators review each application/);
      assert.match(approval.text, /Apply for an account/);
      assert.match(approval.text, /why you want to join/);

      config.registrationsMode = "none";
      await setting(
        SITE_SETTING.closedRegistrationsMessage,
        "<p>Full for now, <script>x</script>try <strong>later</strong></p>",
      );
      const closed = await block();
      assert.equal(closed.mode, "closed");
      assert.match(closed.text, /not taking new accounts/);
      assert.match(closed.text, /Full for now, try later/);
      assert.doesNotMatch(closed.text, /script|x try/);
      assert.deepEqual(closed.links, ["/auth/sign_in"]);
      // The landing page says the same.
      const home = await new WebClient(s).get("/");
      assert.equal(home.doc.querySelector(".site-registrations")?.getAttribute("data-mode"), "closed");
    } finally {
      config.registrationsMode = saved;
    }
  });

  it("/privacy-policy: the default or the operator's text with its date; 404 when nothing is left of it", async () => {
    const def = await new WebClient(s).get("/privacy-policy");
    assert.equal(def.status, 200);
    assert.equal(textOf(def.doc, "h1"), "Privacy policy");
    assert.match(mainText(def), /Last updated November 1, 2026/);
    assert.ok(headings(def).includes("h3 What this server stores"));

    await setting(SITE_SETTING.privacyPolicy, { content: "<p>We keep little.</p>", updatedAt: "2026-03-05T10:00:00Z" });
    const own = await new WebClient(s).get("/privacy-policy");
    assert.match(mainText(own), /We keep little\./);
    assert.match(mainText(own), /March 5, 2026/);

    await setting(SITE_SETTING.privacyPolicy, {
      content: "<script>alert(1)</script>",
      updatedAt: "2026-03-05T10:00:00Z",
    });
    const empty = await new WebClient(s).get("/privacy-policy");
    assert.equal(empty.status, 404);
    assert.equal(textOf(empty.doc, "h1"), "Not found");
  });

  it("/terms-of-service: 404 until published, then the current terms and each dated version", async () => {
    const none = await new WebClient(s).get("/terms-of-service");
    assert.equal(none.status, 404);
    assert.match(mainText(none), /has not published terms of service/);

    await publishTermsOfService(s.ctx, { effectiveDate: "2025-01-01", content: "<p>Old terms</p>" });
    await publishTermsOfService(s.ctx, { effectiveDate: "2026-01-01", content: "<p>Current terms</p>" });
    const web = new WebClient(s);
    const current = await web.get("/terms-of-service");
    assert.equal(current.status, 200);
    assert.match(mainText(current), /Current terms/);
    assert.match(mainText(current), /Effective from January 1, 2026/);

    const old = await web.get("/terms-of-service/2025-01-01");
    assert.equal(old.status, 200);
    assert.match(mainText(old), /Old terms/);
    assert.ok(hrefs(old).includes("/terms-of-service/2026-01-01"), "links the newer version");
    assert.ok(hrefs(old).includes("/terms-of-service"));

    assert.equal((await web.get("/terms-of-service/2024-01-01")).status, 404);
    assert.equal((await web.get("/terms-of-service/not-a-date")).status, 404);
  });

  it("/public/local: public local posts, content warnings folded, links to each post, pages by max_id", async () => {
    const first = await post(alice, { status: "first public post" });
    const cw = await post(alice, { status: "hidden under a warning", spoiler_text: "spoilers" });
    await post(alice, { status: "followers only", visibility: "private" });
    await post(alice, { status: "not listed", visibility: "unlisted" });
    for (let i = 0; i < 20; i++) await post(owner, { status: `filler ${i}` });

    const web = new WebClient(s);
    const page = await web.get("/public/local");
    assert.equal(page.status, 200);
    assert.equal(textOf(page.doc, "h1"), "Local timeline");
    assert.equal(page.doc.querySelectorAll("article.site-post").length, 20);
    assert.doesNotMatch(mainText(page), /first public post/, "only the newest 20 on the first page");
    const older = page.doc.querySelector('a[rel="next"]')?.getAttribute("href") ?? "";
    assert.match(older, /^\/public\/local\?max_id=\d+$/);

    const next = await web.get(older);
    assert.equal(next.status, 200);
    const text = mainText(next);
    assert.match(text, /first public post/);
    assert.doesNotMatch(text, /followers only|not listed/);
    assert.ok(hrefs(next).includes(`/@alice/${first.id}`));
    const folded = next.doc.querySelectorAll("article.site-post details").find((d) => d.text.includes("spoilers"));
    assert.ok(folded, "the content warning is a <details>");
    assert.match(folded.text, /hidden under a warning/);
    assert.ok(hrefs(next).includes(`/@alice/${cw.id}`));
    assert.ok(hrefs(next).includes("/public/local"), "a link back to the newest posts");
    assert.equal(next.doc.querySelector('meta[name="robots"]')?.getAttribute("content"), "noindex, noarchive");

    // The federated timeline page shows the same local posts here (no remote ones in this test).
    const all = await web.get("/public");
    assert.equal(all.status, 200);
    assert.equal(textOf(all.doc, "h1"), "Federated timeline");
  });

  it("/public/local: refused when the operator keeps the live feed to users, or turns it off; the API agrees", async () => {
    const anonymous = new WebClient(s);
    try {
      await setting(LIVE_FEED_SETTING.local, "authenticated");
      const refused = await anonymous.get("/public/local");
      assert.equal(refused.status, 403);
      assert.match(mainText(refused), /signed-in users only/);
      assert.ok(hrefs(refused).includes("/auth/sign_in?return_to=%2Fpublic%2Flocal"));
      assert.ok(!hrefs(await anonymous.get("/")).includes("/public/local"), "the landing page stops linking it");
      assert.equal((await signedIn.get("/public/local")).status, 200);
      const api = await s.request("/api/v1/timelines/public?local=true");
      assert.equal(api.status, 422);
      assert.equal((await s.request("/api/v1/timelines/public?local=true", { token: alice.token })).status, 200);
      // The remote part is still public: the API serves it to anyone.
      assert.equal((await s.request("/api/v1/timelines/public?remote=true")).status, 200);
      const instance = await s.request("/api/v2/instance");
      assert.deepEqual(instance.body.configuration.timelines_access.live_feeds, {
        local: "authenticated",
        remote: "public",
      });

      await setting(LIVE_FEED_SETTING.local, "disabled");
      const off = await signedIn.get("/public/local");
      assert.equal(off.status, 403);
      assert.match(mainText(off), /turned this timeline off/);
      const none = await s.request("/api/v1/timelines/public?local=true", { token: alice.token });
      assert.deepEqual([none.status, none.body], [200, []]);

      // Older servers' single switch: timeline_preview=false keeps both parts to users.
      await s.ctx.repos.settings.set(LIVE_FEED_SETTING.local, null);
      await setting(LIVE_FEED_SETTING.timelinePreview, false);
      assert.equal((await anonymous.get("/public/local")).status, 403);
      assert.equal((await anonymous.get("/public")).status, 403);
    } finally {
      await setting(LIVE_FEED_SETTING.local, "public");
      await setting(LIVE_FEED_SETTING.timelinePreview, true);
    }
    assert.equal((await anonymous.get("/public/local")).status, 200);
  });

  it("robots.txt, favicon.ico and the web app manifest", async () => {
    const robots = await s.request<string>("/robots.txt");
    assert.equal(robots.status, 200);
    assert.match(robots.headers.get("content-type") ?? "", /^text\/plain/);
    for (const p of ["/settings", "/auth", "/oauth", "/api", "/admin"])
      assert.match(robots.body, new RegExp(`^Disallow: ${p}$`, "m"));
    assert.match(robots.body, /^Allow: \/$/m);

    const res = await fetch(`${s.url}/favicon.ico`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/x-icon");
    assert.match(res.headers.get("cache-control") ?? "", /max-age=604800/);
    const ico = Buffer.from(await res.arrayBuffer());
    assert.deepEqual([...ico.subarray(0, 6)], [0, 0, 1, 0, 1, 0]);
    assert.equal(ico.readUInt32LE(18), 22);
    assert.deepEqual([...ico.subarray(22, 26)], [0x89, 0x50, 0x4e, 0x47], "a PNG inside");

    const manifest = await s.request("/manifest.json");
    assert.equal(manifest.status, 200);
    assert.match(manifest.headers.get("content-type") ?? "", /manifest\+json/);
    const m = typeof manifest.body === "string" ? JSON.parse(manifest.body) : manifest.body;
    assert.equal(m.start_url, "/");
    assert.ok(m.icons.some((i: { sizes: string }) => i.sizes === "192x192"));
  });
});
