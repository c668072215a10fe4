import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import { createScheduler } from "../../src/infra/scheduler/scheduler.ts";
import { refreshAllowed } from "../../src/services/trends/allowed.ts";
import { refreshTrends } from "../../src/services/trends/scoring.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

/** A loopback web site with an English and a French article (their cards take the page's language). */
async function startSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const lang = req.url === "/en" ? "en" : req.url === "/fr" ? "fr" : undefined;
    if (lang === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="${lang}"><head>
      <meta property="og:title" content="Seabird news (${lang})">
      <meta property="og:description" content="Gannets dive.">
      </head><body>news</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("trends", () => {
  let s: TestServer;
  let site: Awaited<ReturnType<typeof startSite>>;
  let ann: TestUser;
  let ben: TestUser;
  let cat: TestUser;
  let dan: TestUser;
  let robot: TestUser;
  let quiet: TestUser;
  let admin: TestUser;
  /** Posts by id: an English one favourited and boosted by people, a French one, and the ones that must not trend. */
  const posts: Record<string, string> = {};

  const post = async (u: TestUser, status: string, language = "en") => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json: { status, language } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id as string;
  };
  const act = async (u: TestUser, id: string, what: "favourite" | "reblog") => {
    const r = await s.request(`/api/v1/statuses/${id}/${what}`, { method: "POST", token: u.token });
    assert.equal(r.status, 200);
  };
  const get = (path: string, opts: { token?: string; lang?: string } = {}) =>
    s.request(path, { token: opts.token, headers: opts.lang ? { "accept-language": opts.lang } : {} });
  const ids = (list: { id: string }[]) => list.map((x) => x.id);
  const review = (on: boolean) => {
    s.ctx.config.trends.review = { tags: on, statuses: on, links: on };
    return refreshAllowed(s.ctx);
  };

  before(async () => {
    site = await startSite();
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1", DEFAULT_LOCALE: "en" });
    [ann, ben, cat, dan, robot, quiet] = await Promise.all(
      ["ann", "ben", "cat", "dan", "robot", "quiet"].map((n) => s.createUser(n)),
    );
    admin = await s.createUser("boss", { role: "Admin", scopes: ADMIN_SCOPES });
    for (const u of [ann, ben, cat, dan, robot, quiet]) {
      const r = await s.request("/api/v1/accounts/update_credentials", {
        method: "PATCH",
        token: u.token,
        json: { discoverable: true, bot: u === robot },
      });
      assert.equal(r.status, 200);
    }
    const silenced = await s.request(`/api/v1/admin/accounts/${quiet.account.id}/action`, {
      method: "POST",
      token: admin.token,
      json: { type: "silence" },
    });
    assert.equal(silenced.status, 200);

    // #gannets: three people (and a bot and a silenced account, who do not count).
    posts.en = await post(ann, `Gannets dive #gannets ${site.url}/en`);
    for (const u of [ben, cat, robot, quiet]) await post(u, `#Gannets again ${site.url}/en`);
    // #botsonly: one person, the rest bots and silenced accounts.
    for (const u of [ann, robot, quiet]) await post(u, "beep #botsonly");
    posts.fr = await post(ben, `Les fous de Bassan ${site.url}/fr`, "fr");
    await post(cat, `Oui ${site.url}/fr`, "fr");
    posts.lonely = await post(dan, "Only machines like this");
    posts.silenced = await post(quiet, "A silenced post");
    for (const u of [ben, cat, dan]) await act(u, posts.en, "favourite");
    await act(dan, posts.en, "reblog");
    for (const u of [cat, dan]) await act(u, posts.fr, "favourite");
    // One person, a bot, a silenced account and the author: not enough.
    for (const u of [robot, quiet, ann, dan]) await act(u, posts.lonely, "favourite");
    for (const u of [ann, ben, cat]) await act(u, posts.silenced, "favourite");
    await s.settle();
    const scored = await refreshTrends(s.ctx);
    assert.deepEqual(scored, { tags: 1, statuses: 2, links: 2 });
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  it("shows nothing under review until approved, with a Link header on the empty page", async () => {
    for (const [path, def] of [
      ["/api/v1/trends/tags", 10],
      ["/api/v1/trends", 10],
      ["/api/v1/trends/statuses", 20],
      ["/api/v1/trends/links", 10],
    ] as const) {
      const r = await get(path);
      assert.equal(r.status, 200, path);
      assert.deepEqual(r.body, [], path);
      assert.equal(r.headers.get("link"), `<${s.ctx.config.baseUrl}${path}?offset=0>; rel="prev"`, `${path} ${def}`);
    }
  });

  it("shows approved hashtags with their history; bots and silenced accounts do not make a trend", async () => {
    for (const name of ["gannets", "botsonly"]) {
      const tag = await get(`/api/v1/tags/${name}`);
      const put = await s.request(`/api/v1/admin/tags/${tag.body.id}`, {
        method: "PUT",
        token: admin.token,
        json: { trendable: true },
      });
      assert.equal(put.status, 200);
    }
    const r = await get("/api/v1/trends/tags");
    assert.deepEqual(
      r.body.map((t: { name: string }) => t.name),
      ["gannets"],
    );
    const [tag] = r.body;
    assert.equal(tag.history.length, 7);
    assert.deepEqual(Object.keys(tag.history[0]), ["day", "uses", "accounts"]);
    assert.ok(Number(tag.history[0].accounts) >= 3 && typeof tag.history[0].uses === "string");
    assert.equal(tag.following, undefined);
    const signedIn = await get("/api/v1/trends", { token: ann.token });
    assert.equal(signedIn.body[0].following, false);
  });

  it("hides rejected items whatever the review setting, and shows the others without review", async () => {
    await review(false);
    assert.deepEqual(ids((await get("/api/v1/trends/statuses")).body), [posts.en]);
    await s.ctx.db.updateTable("statuses").set({ trendable: false }).where("id", "=", posts.en).execute();
    await s.ctx.db.updateTable("tags").set({ trendable: false }).execute();
    await refreshAllowed(s.ctx);
    assert.deepEqual((await get("/api/v1/trends/statuses")).body, []);
    assert.deepEqual((await get("/api/v1/trends/tags")).body, []);
    await s.ctx.db.updateTable("statuses").set({ trendable: null }).execute();
    await s.ctx.db.updateTable("tags").set({ trendable: true }).execute();
    await review(true);
    assert.deepEqual((await get("/api/v1/trends/statuses")).body, [], "unreviewed posts are hidden again");
    await s.ctx.db.updateTable("statuses").set({ trendable: true }).where("id", "in", [posts.en, posts.fr]).execute();
    await refreshAllowed(s.ctx);
  });

  it("shows trending posts in the reader's languages: Accept-Language, settings, the server's default", async () => {
    assert.deepEqual(ids((await get("/api/v1/trends/statuses")).body), [posts.en], "English by default");
    const fr = await get("/api/v1/trends/statuses", { lang: "fr-CH, fr;q=0.9" });
    assert.deepEqual(ids(fr.body).sort(), [posts.en, posts.fr].sort());
    // The posting language of a signed-in reader, set through the API.
    const set = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: dan.token,
      json: { source: { language: "fr" } },
    });
    assert.equal(set.status, 200);
    const mine = await get("/api/v1/trends/statuses", { token: dan.token });
    assert.equal(mine.body.length, 2);
    assert.doesNotMatch(mine.headers.get("cache-control") ?? "", /public/, "a reader's own answer is not shared");
    const en = mine.body.find((x: { id: string }) => x.id === posts.en);
    assert.equal(en.favourited, true, "rendered for the reader");
    assert.equal(en.reblogged, true);
    // Chosen languages (Mastodon's `chosen_languages`).
    await s.ctx.repos.users.update(cat.user.id, { settings: JSON.stringify({ chosenLanguages: ["fr"] }) });
    assert.equal((await get("/api/v1/trends/statuses", { token: cat.token })).body.length, 2);
    assert.equal((await get("/api/v1/trends/statuses", { token: ben.token })).body.length, 1);
    // A reader who mutes the author does not see the post.
    await s.request(`/api/v1/accounts/${ann.account.id}/mute`, { method: "POST", token: dan.token });
    assert.deepEqual(ids((await get("/api/v1/trends/statuses", { token: dan.token })).body), [posts.fr]);
  });

  it("pages by offset with Link headers", async () => {
    await review(false);
    const first = await get("/api/v1/trends/statuses?limit=1", { lang: "fr" });
    assert.equal(first.body.length, 1);
    assert.match(first.headers.get("cache-control") ?? "", /^public, max-age=15/);
    assert.equal(first.headers.get("vary"), "Authorization, Accept-Language");
    const base = `${s.ctx.config.baseUrl}/api/v1/trends/statuses`;
    assert.equal(
      first.headers.get("link"),
      `<${base}?limit=1&offset=1>; rel="next", <${base}?limit=1&offset=0>; rel="prev"`,
    );
    const second = await get("/api/v1/trends/statuses?limit=1&offset=1", { lang: "fr" });
    assert.equal(second.body.length, 1);
    assert.notEqual(second.body[0].id, first.body[0].id);
    const third = await get("/api/v1/trends/statuses?limit=1&offset=2", { lang: "fr" });
    assert.deepEqual(third.body, []);
    assert.equal(third.headers.get("link"), `<${base}?limit=1&offset=1>; rel="prev"`);
    assert.equal((await get("/api/v1/trends/tags?limit=50")).body.length, 1, "limit is capped, not refused");
    // Each path of hashtags links to itself (answers are cached by path).
    await get("/api/v1/trends/tags?limit=1");
    const old = await get("/api/v1/trends?limit=1");
    assert.match(old.headers.get("link") ?? "", /\/api\/v1\/trends\?limit=1&offset=1>; rel="next"/);
    assert.equal((await get("/api/v1/trends/links?offset=-1")).status, 400);
    assert.equal((await get("/api/v1/trends/links?limit=x")).status, 400);
  });

  it("answers trending links as Trends::Link with their history, in the reader's languages", async () => {
    const en = await get("/api/v1/trends/links");
    assert.equal(en.body.length, 1);
    const [link] = en.body;
    assert.equal(link.url, `${site.url}/en`);
    assert.equal(link.title, "Seabird news (en)");
    assert.equal(link.history.length, 7);
    assert.deepEqual(link.history[0].uses, "5");
    assert.deepEqual(link.history[0].accounts, "5");
    assert.deepEqual(link.history[1], { day: String(Number(link.history[0].day) - 86400), uses: "0", accounts: "0" });
    const both = await get("/api/v1/trends/links", { lang: "fr" });
    assert.deepEqual(both.body.map((l: { url: string }) => l.url).sort(), [`${site.url}/en`, `${site.url}/fr`]);
    // The publisher's row exists for review.
    const provider = await s.ctx.db
      .selectFrom("preview_card_providers")
      .select("domain")
      .where("domain", "=", "127.0.0.1")
      .executeTakeFirst();
    assert.ok(provider);
    // Under review a link shows once its publisher is approved.
    await review(true);
    assert.deepEqual((await get("/api/v1/trends/links")).body, []);
    await s.ctx.db.updateTable("preview_card_providers").set({ trendable: true }).execute();
    await refreshAllowed(s.ctx);
    assert.equal((await get("/api/v1/trends/links")).body.length, 1);
  });

  it("serves the link timeline for a trending link only", async () => {
    const url = `${site.url}/en`;
    const r = await get(`/api/v1/timelines/link?url=${encodeURIComponent(url)}&limit=2`);
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 2);
    assert.ok(BigInt(r.body[0].id) > BigInt(r.body[1].id), "newest first");
    assert.ok(r.body.every((x: { card: { url: string } }) => x.card.url === url));
    assert.match(r.headers.get("link") ?? "", /max_id=.*rel="next"/);
    const all = await get(`/api/v1/timelines/link?url=${encodeURIComponent(url)}`);
    assert.equal(all.body.length, 4, "the silenced account's post is left out, the bot's stays");
    const fr = `/api/v1/timelines/link?url=${encodeURIComponent(`${site.url}/fr`)}`;
    assert.equal((await get(fr, { lang: "fr" })).status, 200, "its publisher is approved");
    // The link's own switch wins over its publisher's.
    await s.ctx.db.updateTable("preview_cards").set({ trendable: false }).where("url", "=", `${site.url}/fr`).execute();
    await refreshAllowed(s.ctx);
    assert.equal((await get(fr)).status, 404);
    assert.equal((await get(`/api/v1/timelines/link?url=${encodeURIComponent(`${site.url}/nope`)}`)).status, 404);
    assert.equal((await get("/api/v1/timelines/link")).status, 404);
  });

  it("lets the trends fade once their burst is over", async () => {
    const later = new Date(Date.now() + 30 * 3600_000);
    assert.deepEqual(await refreshTrends(s.ctx, later), { tags: 0, statuses: 0, links: 0 });
    assert.deepEqual((await get("/api/v1/trends/links")).body, []);
    // The scheduler's own task scores them again (asked to run now rather than in five minutes).
    await (await createScheduler(s.ctx)).runSoon("trends.refresh");
    const count = async () => (await s.ctx.db.selectFrom("trend_links").select("rank").execute()).length;
    for (let i = 0; i < 250 && (await count()) === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await count(), 2);
  });

  it("scores nothing and lists nothing with TRENDS_ENABLED=false", async () => {
    s.ctx.config.trends.enabled = false;
    try {
      assert.deepEqual(await refreshTrends(s.ctx), { tags: 0, statuses: 0, links: 0 });
      for (const path of ["/api/v1/trends/tags", "/api/v1/trends/statuses", "/api/v1/trends/links"]) {
        assert.deepEqual((await get(path)).body, [], path);
      }
      assert.equal((await get(`/api/v1/timelines/link?url=${encodeURIComponent(`${site.url}/en`)}`)).status, 404);
    } finally {
      s.ctx.config.trends.enabled = true;
    }
  });
});
