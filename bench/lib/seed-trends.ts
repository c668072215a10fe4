// Trending material for the seeded instance (bench/seed.ts), deterministic for a given seed:
// the 200,000 statuses spread evenly over 60 days give every hashtag its usual level but no
// burst, so this adds what trends are made of, written straight into the database after them:
// - hashtag bursts over the last day: 8 tags (4 of the seeded ones, 4 new), each 40-160 public
//   posts by distinct accounts around a peak 1 to 20 hours ago, so some rise and some fade;
// - 24 links on 6 news sites with their preview cards, shared by 300 posts over the last day;
// - favourites and boosts from distinct accounts on those posts: a few draw hundreds, most a few;
// - 10 bot accounts and 5 silenced ones pushing a tag of their own with favourites among
//   themselves (none of which may count);
// - the moderators' decisions review needs (TRENDS_REVIEW_* are on by default): the 8 tags and
//   the 6 sites approved, and the 60 most engaged posts; the spam tag not reviewed.
// Posts here reach no home feed (the timelines' benchmarks keep the bodies they had).
import { sql } from "kysely";
import type { AppContext } from "../../src/context.ts";
import { plainTextToHtml } from "../../src/lib/text/plain-text-to-html.ts";
import { tagUrl } from "../../src/serializers/status.ts";
import { bulkInsert, iso } from "./bulk-insert.ts";
import { prng, type SeedData } from "./seed-data.ts";
import { WORDS } from "./seed-words.ts";

const HOUR = 3600_000;
const NEW_TAGS = ["solareclipse", "gannetlaunch", "marathonday", "bookfair2026"];
const SPAM_TAG = "freecryptodrop";
const SITES = ["news.example", "daily.example", "science.example", "tech.example", "sports.example", "culture.example"];
const LANGS = ["en", "en", "en", "en", "de", "fr", "es", "ja"];

interface Post {
  id: string;
  account: number;
  time: number;
  tags: string[];
  link: number;
  lang: string;
  favourites: number;
  reblogs: number;
}

/**
 * Ids above any the main seed hands out at the same millisecond (it counts up from ms << 16),
 * so nothing collides however the times fall.
 */
function idAt(ms: number, k: number): string {
  return ((BigInt(Math.floor(ms)) << 16n) | BigInt(0x8000 + (k & 0x7fff))).toString();
}

export async function seedTrends(
  ctx: AppContext,
  data: SeedData,
  accountIds: string[],
  usernameOf: (i: number) => string,
): Promise<Record<string, number>> {
  const { shape } = data;
  // Too few accounts for distinct crowds (development shapes): no trending material.
  if (shape.accounts < 100) return {};
  const rand = prng(shape.seed + 17);
  const nA = shape.accounts;
  const now = shape.now;
  const base = ctx.config.baseUrl;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  let k = 0;
  const nextId = (ms: number) => idAt(ms, k++);
  const clampTime = (t: number) => Math.min(now - 60_000 - int(0, 30_000), Math.max(now - 30 * HOUR, t));
  // Spammers are the last 15 accounts; people are drawn from the others (never the reader/author).
  const bots = Array.from({ length: 10 }, (_, i) => nA - 15 + i);
  const silenced = Array.from({ length: 5 }, (_, i) => nA - 5 + i);
  const people = nA - 17;
  const distinct = (count: number, except: number) => {
    const out = new Set<number>();
    while (out.size < Math.min(count, people - 1)) {
      const a = 2 + Math.floor(rand() * people);
      if (a !== except) out.add(a);
    }
    return [...out];
  };

  const posts: Post[] = [];
  const post = (account: number, time: number, tags: string[], link = -1) =>
    posts.push({
      id: "",
      account,
      time: clampTime(time),
      tags,
      link,
      lang: LANGS[Math.floor(rand() * LANGS.length)],
      favourites: 0,
      reblogs: 0,
    });
  // Hashtag bursts: posts spread around each peak (exponential on both sides, about 2 hours).
  const existing = [7, 23, 41, 66].map((i) => data.tagNames[i % data.tagNames.length]);
  const burstTags = [...NEW_TAGS, ...existing];
  const peaks = [1, 3, 6, 20, 2, 4, 10, 16];
  burstTags.forEach((tag, b) => {
    const peak = now - peaks[b] * HOUR;
    for (const a of distinct(int(40, 160), -1)) {
      const spread = -Math.log(1 - rand()) * 2 * HOUR;
      const other = rand() < 0.2 ? [burstTags[(b + 1) % burstTags.length]] : [];
      post(a, peak + (rand() < 0.5 ? -spread : spread), [tag, ...other]);
    }
  });
  // Links: 4 articles per site, shared by power-law popularity over the last day.
  const links = SITES.flatMap((site, s) =>
    Array.from({ length: 4 }, (_, j) => ({ site, url: `https://${site}/2026/story-${s * 4 + j + 1}` })),
  );
  const linkWeight = links.map((_, i) => 1 / (i + 2));
  const totalWeight = linkWeight.reduce((x, y) => x + y, 0);
  for (let i = 0; i < 300; i++) {
    let r = rand() * totalWeight;
    let l = 0;
    while (r > linkWeight[l] && l < links.length - 1) r -= linkWeight[l++];
    post(2 + Math.floor(rand() * people), now - rand() * 24 * HOUR, [], l);
  }
  // The spam wave: bots and silenced accounts on one tag over the last 3 hours.
  const spammers = [...bots, ...silenced];
  for (let i = 0; i < 120; i++) post(spammers[i % spammers.length], now - rand() * 3 * HOUR, [SPAM_TAG]);
  posts.sort((x, y) => x.time - y.time);
  for (const p of posts) p.id = nextId(p.time);

  // Engagement: every post a few favourites; 60 of them (every 7th of the people's posts) many,
  // with boosts, a power-law over them; the spammers favourite each other's posts.
  const favs: [account: number, post: Post, time: number][] = [];
  const boosts: [account: number, post: Post, time: number][] = [];
  const popular: Post[] = [];
  posts.forEach((p, i) => {
    const spam = p.tags.includes(SPAM_TAG);
    if (!spam && i % 7 === 3 && popular.length < 60) popular.push(p);
    const fans = spam ? spammers.filter((a) => a !== p.account) : distinct(int(0, 3), p.account);
    for (const a of fans) favs.push([a, p, clampTime(p.time + rand() * 2 * HOUR)]);
  });
  popular.forEach((p, rank) => {
    const heat = 1 / (1 + rank / 6);
    const fans = distinct(Math.floor(200 * heat) + int(5, 20), p.account);
    for (const a of fans) favs.push([a, p, clampTime(p.time + -Math.log(1 - rand()) * 3 * HOUR)]);
    for (const a of fans.slice(0, Math.floor(fans.length / 4)))
      boosts.push([a, p, clampTime(p.time + -Math.log(1 - rand()) * 3 * HOUR)]);
  });
  const seen = new Set<string>();
  const favRows = favs
    .filter(([a, p]) => !seen.has(`${a}:${p.id}`) && seen.add(`${a}:${p.id}`))
    .sort((x, y) => x[2] - y[2]);
  for (const [, p] of favRows) p.favourites++;
  boosts.sort((x, y) => x[2] - y[2]);
  for (const [, p] of boosts) p.reblogs++;

  // Rows: tags, cards, sites, posts (with their tags and cards), boosts, favourites.
  const counts: Record<string, number> = {};
  const tagIds = new Map<string, string>();
  const known = await ctx.db
    .selectFrom("tags")
    .select(["id", "name"])
    .where("name", "in", [...burstTags, SPAM_TAG])
    .execute();
  for (const t of known) tagIds.set(t.name, String(t.id));
  const newTags = [...NEW_TAGS, SPAM_TAG].filter((t) => !tagIds.has(t));
  for (const t of newTags) tagIds.set(t, nextId(now - 30 * HOUR));
  const reviewed = iso(now - HOUR / 2);
  counts.trend_tags_new = await bulkInsert(
    ctx,
    "tags",
    ["id", "name", "display_name", "created_at", "updated_at"],
    newTags.map((t) => [tagIds.get(t), t, t, iso(now - 30 * HOUR), iso(now - 30 * HOUR)]),
    newTags.length,
  );
  const cardIds = links.map(() => nextId(now - 30 * HOUR));
  counts.preview_cards = await bulkInsert(
    ctx,
    "preview_cards",
    ["id", "url", "title", "description", "type", "provider_name", "provider_url", "language", "published_at"].concat([
      "created_at",
      "updated_at",
    ]),
    links.map((l, i) => [
      cardIds[i],
      l.url,
      `Story ${i + 1}: ${WORDS[(i * 11) % WORDS.length]} and ${WORDS[(i * 17) % WORDS.length]} in the news`,
      `What happened with ${WORDS[(i * 5) % WORDS.length]}, explained by the ${l.site} desk.`,
      "link",
      l.site.split(".")[0],
      `https://${l.site}/`,
      i % 5 === 4 ? "de" : "en",
      iso(now - 30 * HOUR),
      iso(now - 30 * HOUR),
      iso(now - 30 * HOUR),
    ]),
    links.length,
  );
  counts.preview_card_providers = await bulkInsert(
    ctx,
    "preview_card_providers",
    ["id", "domain", "trendable", "reviewed_at", "created_at", "updated_at"],
    SITES.map((site) => [nextId(now - 30 * HOUR), site, true, reviewed, iso(now - 30 * HOUR), reviewed]),
    SITES.length,
  );

  const approved = new Set(popular.map((p) => p.id));
  counts.trend_posts = await bulkInsert(
    ctx,
    "statuses",
    ["id", "uri", "url", "account_id", "conversation_id", "text", "content", "visibility", "language", "local"].concat([
      "reblogs_count",
      "favourites_count",
      "trendable",
      "created_at",
      "updated_at",
    ]),
    (function* () {
      for (const p of posts) {
        const u = usernameOf(p.account);
        const words = Array.from({ length: int(6, 30) }, () => WORDS[Math.floor(rand() * WORDS.length)]);
        if (p.link >= 0) words.push(links[p.link].url);
        for (const t of p.tags) words.push(`#${t}`);
        const text = words.join(" ");
        const content = plainTextToHtml(text, { multiline: true, tagUrl: (tag) => tagUrl(base, tag) });
        yield [
          p.id,
          `${base}/users/${u}/statuses/${p.id}`,
          `${base}/@${u}/${p.id}`,
          accountIds[p.account],
          p.id,
          text,
          content,
          rand() < 0.9 ? "public" : "unlisted",
          p.lang,
          true,
          p.reblogs,
          p.favourites,
          approved.has(p.id) ? true : null,
          iso(p.time),
          iso(p.time),
        ];
      }
    })(),
    posts.length,
  );
  counts.trend_posts_tags = await bulkInsert(
    ctx,
    "statuses_tags",
    ["status_id", "tag_id"],
    posts.flatMap((p) => p.tags.map((t) => [p.id, tagIds.get(t)])),
    posts.reduce((n, p) => n + p.tags.length, 0),
  );
  const linked = posts.filter((p) => p.link >= 0);
  counts.preview_cards_statuses = await bulkInsert(
    ctx,
    "preview_cards_statuses",
    ["status_id", "preview_card_id", "url"],
    linked.map((p) => [p.id, cardIds[p.link], links[p.link].url]),
    linked.length,
  );
  counts.trend_boosts = await bulkInsert(
    ctx,
    "statuses",
    ["id", "uri", "url", "account_id", "reblog_of_id", "visibility", "local", "created_at", "updated_at"],
    boosts.map(([a, p, t]) => {
      const id = nextId(t);
      const uri = `${base}/users/${usernameOf(a)}/statuses/${id}/activity`;
      return [id, uri, uri, accountIds[a], p.id, "public", true, iso(t), iso(t)];
    }),
    boosts.length,
  );
  counts.trend_favourites = await bulkInsert(
    ctx,
    "favourites",
    ["id", "account_id", "status_id", "created_at"],
    favRows.map(([a, p, t]) => [nextId(t), accountIds[a], p.id, iso(t)]),
    favRows.length,
  );

  // The moderators' decisions and the spammers' standing, then the authors' counters.
  const db = ctx.db;
  const approvedTags = burstTags.map((t) => tagIds.get(t) as string);
  await db
    .updateTable("tags")
    .set({ trendable: true, reviewed_at: reviewed })
    .where("id", "in", approvedTags)
    .execute();
  await db
    .updateTable("accounts")
    .set({ actor_type: "Service" })
    .where(
      "id",
      "in",
      bots.map((a) => accountIds[a]),
    )
    .execute();
  await db
    .updateTable("accounts")
    .set({ silenced_at: iso(now - 48 * HOUR) })
    .where(
      "id",
      "in",
      silenced.map((a) => accountIds[a]),
    )
    .execute();
  const authors = [...new Set([...posts.map((p) => p.account), ...boosts.map(([a]) => a)])].map((a) => accountIds[a]);
  await db
    .updateTable("accounts")
    .set({
      statuses_count: sql`(SELECT count(*) FROM statuses s WHERE s.account_id = accounts.id)`,
      last_status_at: sql`(SELECT max(s.created_at) FROM statuses s WHERE s.account_id = accounts.id)`,
    })
    .where("id", "in", authors)
    .execute();
  return counts;
}
