// Seed data for the benchmark: a realistic instance written straight into the database in bulk
// (batched multi-row inserts inside transactions, no services, no jobs). Usable on its own:
//   DATA_DIR=/tmp/x node bench/seed.ts            (SQLite in DATA_DIR)
//   DATABASE_URL=postgres://... node bench/seed.ts
//   SEED_STATUSES=20000 SEED_ACCOUNTS=500 ...     (smaller shapes, for development)
// The database must hold no accounts yet (it is migrated first). Prints KEY=VALUE lines: the
// reader's and the author's ids and tokens, and what was written.
//
// What it builds (bench/lib/seed-data.ts): 2,000 local accounts with users; 200,000 statuses
// over 60 days (posts, replies with long threads, boosts, mentions with a few mention-heavy
// posts, power-law hashtags, public/unlisted/private/direct); favourites; a reader (account 0)
// following 500 accounts; an author (account 1) with 1,000 local followers; every home feed as
// the fan-out job leaves it (capped at FEED_CAP); the reader's notifications and bookmarks;
// tokens for the reader and the author; trending material over the last day (hashtag bursts,
// shared links with preview cards, favourites and boosts: bench/lib/seed-trends.ts). Then,
// through the services the API calls (bench/lib/seed-curation.ts): blocks and mutes (the reader blocks 10 and mutes 10, 5 accounts
// block the reader, 20 accounts it follows block and mute others), lists (4 of the reader's, 30
// of the author's followers' holding the author), endorsements and notes. Prints 40 account ids
// for the relationships workload. SEED_READER_FILTERS=1 also gives the reader the benchmark's 20
// keyword filters (bench/lib/filters.ts; `npm run bench` creates them through the API instead,
// after measuring the unfiltered home timeline).
import { type Kysely, sql } from "kysely";
import type { AppContext } from "../src/context.ts";
import type { FilterContext } from "../src/db/repositories/filters.ts";
import type { DB } from "../src/db/schema.ts";
import { passwords } from "../src/lib/passwords.ts";
import { plainTextToHtml } from "../src/lib/text/plain-text-to-html.ts";
import { tagUrl } from "../src/serializers/status.ts";
import { FEED_CAP } from "../src/services/feeds/fan-out.ts";
import { cliApplication, issueToken } from "../src/services/oauth/tokens.ts";
import { bulkInsert, Ids, iso } from "./lib/bulk-insert.ts";
import { BENCH_FILTERS } from "./lib/filters.ts";
import { seedConversations } from "./lib/seed-conversations.ts";
import { curate } from "./lib/seed-curation.ts";
import {
  AUTHOR,
  DEFAULT_SHAPE,
  generate,
  KIND_BOOST,
  KIND_REPLY,
  prng,
  READER,
  type SeedData,
  type SeedShape,
  visibilityOf,
} from "./lib/seed-data.ts";
import { seedTrends } from "./lib/seed-trends.ts";
import { WORDS } from "./lib/seed-words.ts";

export interface SeedResult {
  readerId: string;
  authorId: string;
  readerToken: string;
  authorToken: string;
  readerUsername: string;
  authorUsername: string;
  /** 40 account ids for the relationships workload. */
  relationshipIds: string[];
  /** The hashtag on the most posts, for the hashtag feed workload. */
  tag: string;
  counts: Record<string, number>;
  generateMs: number;
  writeMs: number;
  /** Of writeMs, the blocks, mutes, lists, endorsements and notes written through the services. */
  curateMs: number;
}

const SCOPES = ["read", "write", "follow", "push", "profile"];

function usernameOf(i: number): string {
  if (i === READER) return "reader";
  if (i === AUTHOR) return "author";
  return `${WORDS[i % WORDS.length]}_${i}`;
}

/** The name of the hashtag on the most statuses (the power law shuffles the names). */
function busiestTag(data: SeedData): string {
  const uses = new Int32Array(data.tagNames.length);
  for (const list of data.statuses.tags.values()) for (const t of list) uses[t]++;
  let best = 0;
  for (let t = 1; t < uses.length; t++) if (uses[t] > uses[best]) best = t;
  return data.tagNames[best];
}

/** Writes a generated instance; the database must be migrated and hold no accounts. */
export async function writeSeed(ctx: AppContext, data: SeedData): Promise<SeedResult> {
  const t0 = performance.now();
  const existing = await ctx.db
    .selectFrom("accounts")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) throw new Error("the database already holds accounts: seed an empty one");
  const { shape, statuses: s } = data;
  const base = ctx.config.baseUrl;
  const rand = prng(shape.seed + 1);
  const nA = shape.accounts;
  const counts: Record<string, number> = {};
  const app = await cliApplication(ctx);
  const encrypted = await passwords.hash("benchmark-password");

  // Accounts and users, with their counters.
  const accountIds: string[] = [];
  const ids = new Ids();
  for (let i = 0; i < nA; i++) accountIds.push(ids.at(data.accountTimes[i]));
  const statusesCount = new Int32Array(nA);
  const lastStatus = new Float64Array(nA);
  for (let i = 0; i < s.n; i++) {
    statusesCount[s.author[i]]++;
    lastStatus[s.author[i]] = s.time[i];
  }
  const followers = new Int32Array(nA);
  const followingCount = new Int32Array(nA);
  for (const f of data.follows) {
    followers[f.to]++;
    followingCount[f.from]++;
  }
  const accountCols = [
    "id",
    "username",
    "domain",
    "display_name",
    "note",
    "note_source",
    "uri",
    "url",
    "inbox_url",
    "outbox_url",
    "shared_inbox_url",
    "followers_url",
    "following_url",
    "featured_url",
    "featured_tags_url",
    "discoverable",
    "statuses_count",
    "followers_count",
    "following_count",
    "last_status_at",
    "created_at",
    "updated_at",
  ];
  counts.accounts = await bulkInsert(
    ctx,
    "accounts",
    accountCols,
    (function* () {
      for (let i = 0; i < nA; i++) {
        const u = usernameOf(i);
        const note = `Posting about ${WORDS[(i * 7) % WORDS.length]} and ${WORDS[(i * 13) % WORDS.length]}.`;
        const at = iso(data.accountTimes[i]);
        yield [
          accountIds[i],
          u,
          null,
          `${u.replace(/_/g, " ")} ✨`,
          `<p>${note}</p>`,
          note,
          `${base}/users/${u}`,
          `${base}/@${u}`,
          `${base}/users/${u}/inbox`,
          `${base}/users/${u}/outbox`,
          `${base}/inbox`,
          `${base}/users/${u}/followers`,
          `${base}/users/${u}/following`,
          `${base}/users/${u}/collections/featured`,
          `${base}/users/${u}/collections/tags`,
          true,
          statusesCount[i],
          followers[i],
          followingCount[i],
          lastStatus[i] > 0 ? iso(lastStatus[i]) : null,
          at,
          at,
        ];
      }
    })(),
    nA,
  );
  const userIds: string[] = [];
  const userIdGen = new Ids();
  for (let i = 0; i < nA; i++) userIds.push(userIdGen.at(data.accountTimes[i]));
  const userCols = [
    "id",
    "account_id",
    "email",
    "encrypted_password",
    "role_id",
    "locale",
    "confirmed_at",
    "approved",
    "disabled",
    "settings",
    "created_at",
    "updated_at",
  ];
  counts.users = await bulkInsert(
    ctx,
    "users",
    userCols,
    (function* () {
      for (let i = 0; i < nA; i++) {
        const at = iso(data.accountTimes[i]);
        yield [
          userIds[i],
          accountIds[i],
          `${usernameOf(i)}@bench.example`,
          encrypted,
          "-99",
          "en",
          at,
          true,
          false,
          "{}",
          at,
          at,
        ];
      }
    })(),
    nA,
  );

  // Follows.
  const followIds = new Ids();
  const followIdList = data.follows.map((f) => followIds.at(f.time));
  counts.follows = await bulkInsert(
    ctx,
    "follows",
    ["id", "account_id", "target_account_id", "show_reblogs", "notify", "uri", "created_at", "updated_at"],
    (function* () {
      for (let j = 0; j < data.follows.length; j++) {
        const f = data.follows[j];
        const at = iso(f.time);
        yield [
          followIdList[j],
          accountIds[f.from],
          accountIds[f.to],
          f.showReblogs,
          false,
          `${base}/${followIdList[j]}`,
          at,
          at,
        ];
      }
    })(),
    data.follows.length,
  );

  // Tags.
  const tagIds = new Ids();
  const tagIdList = data.tagNames.map(() => tagIds.at(shape.now - shape.days * 86_400_000));
  counts.tags = await bulkInsert(
    ctx,
    "tags",
    ["id", "name", "display_name", "created_at", "updated_at"],
    data.tagNames.map((name, i) => [
      tagIdList[i],
      name,
      name,
      iso(shape.now - shape.days * 86_400_000),
      iso(shape.now),
    ]),
    data.tagNames.length,
  );

  // Statuses, with their mentions and tags.
  const statusIds = new Ids();
  const sid: string[] = new Array(s.n);
  for (let i = 0; i < s.n; i++) sid[i] = statusIds.at(s.time[i]);
  const mentionTarget = (a: number) => ({
    url: `${base}/@${usernameOf(a)}`,
    username: usernameOf(a),
    acct: usernameOf(a),
  });
  const byUsername = new Map<string, number>();
  for (let i = 0; i < nA; i++) byUsername.set(usernameOf(i), i);
  const statusCols = [
    "id",
    "uri",
    "url",
    "account_id",
    "in_reply_to_id",
    "in_reply_to_account_id",
    "reblog_of_id",
    "conversation_id",
    "text",
    "content",
    "spoiler_text",
    "visibility",
    "sensitive",
    "language",
    "local",
    "application_id",
    "replies_count",
    "reblogs_count",
    "favourites_count",
    "created_at",
    "updated_at",
  ];
  counts.statuses = await bulkInsert(
    ctx,
    "statuses",
    statusCols,
    (function* () {
      for (let i = 0; i < s.n; i++) {
        const a = s.author[i];
        const u = usernameOf(a);
        const at = iso(s.time[i]);
        const vis = visibilityOf(s.vis[i]);
        if (s.kind[i] === KIND_BOOST) {
          const uri = `${base}/users/${u}/statuses/${sid[i]}/activity`;
          yield [
            sid[i],
            uri,
            uri,
            accountIds[a],
            null,
            null,
            sid[s.target[i]],
            null,
            "",
            "",
            "",
            vis,
            false,
            null,
            true,
            null,
            0,
            0,
            0,
            at,
            at,
          ];
          continue;
        }
        const words: string[] = [];
        for (const m of s.mentions.get(i) ?? []) words.push(`@${usernameOf(m)}`);
        for (let w = 0; w < s.words[i]; w++) words.push(WORDS[Math.floor(rand() * WORDS.length)]);
        if (rand() < 0.05) words.push(`https://example.com/articles/${sid[i]}`);
        for (const t of s.tags.get(i) ?? []) words.push(`#${data.tagNames[t]}`);
        const text = words.join(" ");
        const content = plainTextToHtml(text, {
          multiline: true,
          tagUrl: (tag) => tagUrl(base, tag),
          mention: (username) => {
            const m = byUsername.get(username);
            return m === undefined ? undefined : mentionTarget(m);
          },
        });
        const reply = s.kind[i] === KIND_REPLY ? s.target[i] : -1;
        const spoiler = s.spoiler[i] ? "Spoilers ahead" : "";
        yield [
          sid[i],
          `${base}/users/${u}/statuses/${sid[i]}`,
          `${base}/@${u}/${sid[i]}`,
          accountIds[a],
          reply >= 0 ? sid[reply] : null,
          reply >= 0 ? accountIds[s.author[reply]] : null,
          null,
          sid[s.conversation[i]],
          text,
          content,
          spoiler,
          vis,
          spoiler !== "",
          data.languages[s.language[i]],
          true,
          i % 2 === 0 ? app.id : null,
          s.replies[i],
          s.reblogs[i],
          s.favourites[i],
          at,
          at,
        ];
      }
    })(),
    s.n,
  );
  const mentionIds = new Ids();
  let nMentions = 0;
  for (const list of s.mentions.values()) nMentions += list.length;
  counts.mentions = await bulkInsert(
    ctx,
    "mentions",
    ["id", "status_id", "account_id", "silent", "created_at"],
    (function* () {
      for (const [i, list] of [...s.mentions].sort((x, y) => x[0] - y[0])) {
        for (const a of list) yield [mentionIds.at(s.time[i]), sid[i], accountIds[a], false, iso(s.time[i])];
      }
    })(),
    nMentions,
  );
  let nTagged = 0;
  for (const list of s.tags.values()) nTagged += list.length;
  counts.statuses_tags = await bulkInsert(
    ctx,
    "statuses_tags",
    ["status_id", "tag_id"],
    (function* () {
      for (const [i, list] of s.tags) for (const t of list) yield [sid[i], tagIdList[t]];
    })(),
    nTagged,
  );

  // Favourites and bookmarks.
  const fav = data.favourites;
  const favIds = new Ids();
  const favIdList: string[] = [];
  for (let f = 0; f < fav.n; f++) favIdList.push(favIds.at(fav.time[f]));
  counts.favourites = await bulkInsert(
    ctx,
    "favourites",
    ["id", "account_id", "status_id", "created_at"],
    (function* () {
      for (let f = 0; f < fav.n; f++)
        yield [favIdList[f], accountIds[fav.account[f]], sid[fav.status[f]], iso(fav.time[f])];
    })(),
    fav.n,
  );
  const bookmarkIds = new Ids();
  counts.bookmarks = await bulkInsert(
    ctx,
    "bookmarks",
    ["id", "account_id", "status_id", "created_at"],
    data.bookmarks.map(([a, t]) => [
      bookmarkIds.at(s.time[t] + 60_000),
      accountIds[a],
      sid[t],
      iso(s.time[t] + 60_000),
    ]),
    data.bookmarks.length,
  );

  // Home feeds.
  let nFeed = 0;
  for (const f of data.feeds) nFeed += f.length;
  counts.feeds = await bulkInsert(
    ctx,
    "feeds",
    ["account_id", "status_id", "reblog_of_id"],
    (function* () {
      for (let a = 0; a < nA; a++) {
        for (const i of data.feeds[a])
          yield [accountIds[a], sid[i], s.kind[i] === KIND_BOOST ? sid[s.target[i]] : null];
      }
    })(),
    nFeed,
  );

  // The reader's notifications.
  const notificationIds = new Ids();
  counts.notifications = await bulkInsert(
    ctx,
    "notifications",
    ["id", "account_id", "from_account_id", "type", "status_id", "activity_id", "group_key", "created_at"],
    (function* () {
      for (const n of data.notifications) {
        const id = notificationIds.at(n.time);
        const status = n.status >= 0 ? sid[n.status] : null;
        const activity =
          n.type === "favourite" ? favIdList[n.cause] : n.type === "follow" ? followIdList[n.cause] : sid[n.cause];
        const group =
          n.type === "favourite" || n.type === "reblog"
            ? `${n.type}-${status}-${Math.floor(n.time / 3600_000)}`
            : `ungrouped-${id}`;
        yield [id, accountIds[READER], accountIds[n.from], n.type, status, activity, group, iso(n.time)];
      }
    })(),
    data.notifications.length,
  );

  // Hashtag bursts, shared links and engagement over the last day, for the trends.
  Object.assign(counts, await seedTrends(ctx, data, accountIds, usernameOf));

  // Blocks, mutes, lists, endorsements and notes, through the services.
  const tCurate = performance.now();
  const curation = await curate(ctx, data, accountIds);
  const curateMs = performance.now() - tCurate;
  Object.assign(counts, curation.counts);
  Object.assign(counts, await seedConversations(ctx, accountIds[READER]));

  const reader = await issueToken(ctx, { applicationId: app.id, userId: userIds[READER], scopes: SCOPES });
  const author = await issueToken(ctx, { applicationId: app.id, userId: userIds[AUTHOR], scopes: SCOPES });
  // The change log (migration 0024) names every row written above; no server has read it, and
  // the one that starts next reads from its newest entry: keep only that.
  await ctx.repos.renderChanges.trim(1, 50_000);
  // PostgreSQL plans by statistics that autovacuum would gather soon after such a load.
  if (ctx.dialect === "postgres") await sql`ANALYZE`.execute(ctx.db as Kysely<DB>);
  return {
    readerId: accountIds[READER],
    authorId: accountIds[AUTHOR],
    readerToken: reader.accessToken,
    authorToken: author.accessToken,
    readerUsername: usernameOf(READER),
    authorUsername: usernameOf(AUTHOR),
    relationshipIds: curation.relationshipIds,
    tag: busiestTag(data),
    counts,
    generateMs: 0,
    writeMs: performance.now() - t0,
    curateMs,
  };
}

/** The default shape, with SEED_* variables overriding its sizes. */
export function shapeFromEnv(env: NodeJS.ProcessEnv): SeedShape {
  const num = (name: string, fallback: number) => {
    const v = env[name];
    if (v === undefined || v === "") return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
    return n;
  };
  const accounts = num("SEED_ACCOUNTS", DEFAULT_SHAPE.accounts);
  if (accounts < 10) throw new Error("SEED_ACCOUNTS must be at least 10");
  return {
    ...DEFAULT_SHAPE,
    accounts,
    statuses: num("SEED_STATUSES", DEFAULT_SHAPE.statuses),
    readerFollows: Math.min(accounts - 1, num("SEED_READER_FOLLOWS", DEFAULT_SHAPE.readerFollows)),
    authorFollowers: Math.min(accounts - 1, num("SEED_AUTHOR_FOLLOWERS", DEFAULT_SHAPE.authorFollowers)),
    feedCap: FEED_CAP,
    seed: num("SEED", DEFAULT_SHAPE.seed),
    now: Date.now(),
  };
}

/** Generates and writes a seeded instance. */
export async function seed(ctx: AppContext, shape: SeedShape): Promise<SeedResult> {
  const t0 = performance.now();
  const data = generate(shape);
  const generateMs = performance.now() - t0;
  const result = await writeSeed(ctx, data);
  return { ...result, generateMs };
}

/** KEY=VALUE lines (read back by the benchmark). */
export function formatResult(r: SeedResult): string {
  const lines = [
    `SEED_READER_ID=${r.readerId}`,
    `SEED_READER_TOKEN=${r.readerToken}`,
    `SEED_AUTHOR_ID=${r.authorId}`,
    `SEED_AUTHOR_TOKEN=${r.authorToken}`,
    `SEED_RELATIONSHIP_IDS=${r.relationshipIds.join(",")}`,
    `SEED_TAG=${r.tag}`,
    `SEED_GENERATE_MS=${Math.round(r.generateMs)}`,
    `SEED_WRITE_MS=${Math.round(r.writeMs)}`,
    `SEED_CURATE_MS=${Math.round(r.curateMs)}`,
    `SEED_COUNTS=${Object.entries(r.counts)
      .map(([k, v]) => `${k}:${v}`)
      .join(",")}`,
  ];
  return `${lines.join("\n")}\n`;
}

if (import.meta.main) {
  const { loadConfig } = await import("../src/config/index.ts");
  const { createContext } = await import("../src/context.ts");
  const ctx = await createContext(loadConfig({ ...process.env }));
  try {
    const result = await seed(ctx, shapeFromEnv(process.env));
    if (process.env.SEED_READER_FILTERS === "1") {
      const { createFilter } = await import("../src/services/filters/filters.ts");
      for (const f of BENCH_FILTERS) {
        const expiresAt = f.expiresIn === undefined ? null : new Date(Date.now() + f.expiresIn * 1000).toISOString();
        const row = { title: f.title, context: f.context as FilterContext[], action: f.action, expiresAt };
        await createFilter(ctx, result.readerId, row, f.keywords);
      }
      result.counts.filters = BENCH_FILTERS.length;
    }
    process.stdout.write(formatResult(result));
  } finally {
    await ctx.close();
  }
}
