import { CompiledQuery, type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { idWindowOrder } from "./id-window.ts";
import { selectShaped } from "./query-shapes.ts";
import { homeFilterAllows } from "./relationships.ts";

/**
 * A follow's `languages` (JSON array, null for all) lets the post through: posts without a
 * language always, boosts always (as Mastodon, whose boosts carry no language).
 */
function languageAllowed(follow: string, status: string) {
  const f = sql.ref(`${follow}.languages`);
  const lang = sql.ref(`${status}.language`);
  return sql<boolean>`(${f} IS NULL OR ${lang} IS NULL OR ${sql.ref(`${status}.reblog_of_id`)} IS NOT NULL
    OR ${f} LIKE '%"' || ${lang} || '"%')`;
}
/**
 * Feeds written (or looked at for trimming) per statement by the fan-out: small, so a request
 * waits for one short statement at most (requests go first on SQLite's connection). Posting at
 * 5 posts/s by an author with 1,000 followers, measured on a shared machine: 66 ms p99 with 100
 * feeds and a 5 ms first pause, 38 ms with 25 and 25 ms; after the request priority and the
 * checkpoint thread, p50 7.8 / p90 16.9 ms with 25 against 6.3-6.5 / 10.2-10.6 ms with 10 (the
 * p99s, 29-54 ms, vary from run to run with rarer stalls).
 */
const FAN_OUT_CHUNK = 10;
/** Followers read per statement when the fan-out looks for its recipients. */
const RECIPIENTS_PAGE = 250;

/**
 * Lets requests take the database connection before and between the chunks of a fan-out: the job
 * starts as soon as the post's transaction commits, while the request still has its answer to
 * build (the first pause leaves it time to), and on SQLite both share one connection.
 */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const FIRST_PAUSE_MS = 25;

/** What the fan-out needs to know of its status. */
export interface FanOutStatus {
  id: string;
  local: boolean;
  visibility: string;
}

export interface FanOutOptions {
  /** Wait before the first statement (default `FIRST_PAUSE_MS`; 0 for a status from another server). */
  firstPauseMs?: number;
  /** Feeds written per statement (default `FAN_OUT_CHUNK`). */
  chunk?: number;
  /**
   * At most this many recipients, or nothing is written and -1 answered (a fan-out run inside
   * the status's own transaction, which must stay one short statement: persist/note.ts).
   */
  atMost?: number;
}

/** All SQL on `feeds`, the materialised home timelines. */
export class FeedsRepository {
  readonly #db: Kysely<DB>;
  readonly #postgres: boolean;
  constructor(db: Kysely<DB>, dialect: "sqlite" | "postgres" = "sqlite") {
    this.#db = db;
    this.#postgres = dialect === "postgres";
  }

  /**
   * Puts a live status into the home feeds that should get it: its author's (a local author's);
   * for public, unlisted and private posts the author's local followers (a boost only for those
   * whose follow shows boosts and whose `languages` let it through, and a reply to someone else
   * only for those who follow them too, or are them, as Mastodon's home filter does); for direct
   * posts the mentioned local accounts that follow the author (Mastodon's
   * deliver_to_mentioned_followers: a stranger's direct message is not pushed into a home). A
   * boost is left out of a feed that already holds the boosted post or another boost of it. As
   * Mastodon's home filter, no other feed gets it whose owner blocks or mutes its author, the
   * boosted post's author or an account either mentions, nor whose owner the author or boosted
   * author blocks. Running it twice
   * changes nothing. Answers how many entries were added (-1: more recipients than `atMost`).
   *
   * The recipients are read 250 followers per query, then written `FAN_OUT_CHUNK` feeds per statement with
   * a turn of the event loop in between: on SQLite's single connection, one statement for
   * thousands of feeds would hold every request behind it (measured: a post by an author with
   * 1,000 followers answered after 1.2 s while its fan-out ran).
   */
  async fanOut(status: FanOutStatus, opts: FanOutOptions = {}, db: Kysely<DB> = this.#db): Promise<number> {
    const statusId = status.id;
    const firstPauseMs = opts.firstPauseMs ?? FIRST_PAUSE_MS;
    const chunkSize = opts.chunk ?? FAN_OUT_CHUNK;
    // The job starts as soon as the post commits, while its request still renders the answer:
    // the recipients query alone takes a few ms on 1,000 followers, so it waits too.
    if (firstPauseMs > 0) await pause(firstPauseMs);
    // The author's own home (a local author's: accounts of other servers have none here) and
    // the local accounts a direct status mentions who follow its author: none for a remote
    // author's status that is not direct.
    const own =
      !status.local && status.visibility !== "direct"
        ? { rows: [] }
        : await sql<{ account_id: string | number }>`
      SELECT a.account_id FROM statuses a JOIN accounts aa ON aa.id = a.account_id
        WHERE a.id = ${statusId} AND aa.domain IS NULL
      UNION
      SELECT m.account_id FROM statuses ms
        JOIN mentions m ON m.status_id = ms.id
        JOIN accounts ma ON ma.id = m.account_id
        JOIN follows mf ON mf.account_id = m.account_id AND mf.target_account_id = ms.account_id
        WHERE ms.id = ${statusId} AND ms.visibility = 'direct' AND ma.domain IS NULL`.execute(db);
    const found = new Set(own.rows.map((x) => String(x.account_id)));
    // The followers a page at a time by follow id (the index on target and id), so that no one
    // statement walks them all (about 3 ms for 1,000 on SQLite, while requests wait).
    let after = "0";
    for (;;) {
      const page = await sql<{ id: string | number; account_id: string | number }>`
        SELECT f.id, f.account_id FROM statuses fs
          JOIN follows f ON f.target_account_id = fs.account_id
          JOIN accounts fa ON fa.id = f.account_id
          WHERE fs.id = ${statusId} AND f.id > ${after} AND fs.visibility <> 'direct' AND fa.domain IS NULL
            AND (fs.reblog_of_id IS NULL OR f.show_reblogs = TRUE)
            AND ${languageAllowed("f", "fs")}
            AND (fs.in_reply_to_account_id IS NULL OR fs.in_reply_to_account_id = fs.account_id
              OR fs.in_reply_to_account_id = f.account_id
              OR EXISTS (SELECT 1 FROM follows rf WHERE rf.account_id = f.account_id
                AND rf.target_account_id = fs.in_reply_to_account_id))
          ORDER BY f.id LIMIT ${RECIPIENTS_PAGE}`.execute(db);
      for (const x of page.rows) found.add(String(x.account_id));
      if (opts.atMost !== undefined && found.size > opts.atMost) return -1;
      const last = page.rows.at(-1);
      if (page.rows.length < RECIPIENTS_PAGE || last === undefined) break;
      after = String(last.id);
      await pause(0);
    }
    const recipients = [...found];
    const now = new Date().toISOString();
    let added = 0;
    for (let i = 0; i < recipients.length; i += chunkSize) {
      if (i > 0) await pause(0);
      const chunk = recipients.slice(i, i + chunkSize);
      // The status is checked again in each statement: one deleted meanwhile reaches no more feeds.
      // Two NOT EXISTS rather than one with OR: each is then a lookup on a whole index key (the OR
      // form walked every entry of each recipient's feed: 80 ms instead of 4 for a boost to 1,000).
      const w = await sql`INSERT INTO feeds (account_id, status_id, reblog_of_id)
        SELECT a.id, s.id, s.reblog_of_id
        FROM statuses s JOIN accounts a ON a.id IN (${sql.join(chunk)})
        LEFT JOIN statuses o ON o.id = s.reblog_of_id
        WHERE s.id = ${statusId} AND s.deleted_at IS NULL
          AND (s.reblog_of_id IS NULL OR (
            NOT EXISTS (SELECT 1 FROM feeds x WHERE x.account_id = a.id AND x.status_id = s.reblog_of_id)
            AND NOT EXISTS (SELECT 1 FROM feeds y WHERE y.account_id = a.id AND y.reblog_of_id = s.reblog_of_id)))
          AND (a.id = s.account_id OR ${homeFilterAllows(sql.ref("a.id"), now)})
        ON CONFLICT (account_id, status_id) DO NOTHING`.execute(db);
      added += Number(w.numAffectedRows ?? 0);
    }
    return added;
  }

  /**
   * Trims the feeds holding `statusId` to their newest `cap` entries, once they hold more than
   * `cap + cap/20` (840 for Mastodon's 800): deleting one entry from every feed at each post
   * rewrote as many database pages as the fan-out itself, while deleting 40 neighbouring entries
   * at once costs about what deleting one does. Which feeds are over that mark is found by
   * walking each one's primary key from the newest end (no sort, no ranking of whole feeds: the
   * window-function version took 0.5-1 s for 1,000 full feeds on SQLite), chunked like `fanOut`;
   * then each of those feeds loses what lies past the cap, in a statement of its own (one
   * correlated DELETE for many feeds was planned as a per-row subquery by PostgreSQL: minutes).
   *
   * With `every` (the fan-out: 20), only about one feed in `every` is looked at, those whose id
   * and the status id add up to a multiple of it: walking 840 entries of each of 1,000 feeds at
   * every post cost more than the fan-out itself. A feed is then looked at once every 20 posts
   * it gets or so, and trimmed back to the cap from a little past 840.
   *
   * `holders`: the accounts whose feed holds the status, when the caller read them already (the
   * fan-out: `StreamingRepository.homesHolding`). Answers the accounts whose feed lost the status
   * itself to the trim (an old post arriving late), so that the caller's list stays exact.
   */
  async trimFeedsOf(
    statusId: string,
    cap: number,
    db: Kysely<DB> = this.#db,
    every = 1,
    holders?: readonly string[],
  ): Promise<string[]> {
    const slack = Math.floor(cap / 20);
    const all =
      holders ??
      (
        await selectShaped(db, "feeds.holders", [statusId], () =>
          db.selectFrom("feeds").select("account_id").where("status_id", "=", statusId),
        )
      ).map((h) => String(h.account_id));
    const status = BigInt(statusId);
    const step = BigInt(every);
    const ids = all.filter((id) => every <= 1 || (BigInt(id) + status) % step === 0n);
    const dropped: string[] = [];
    for (let i = 0; i < ids.length; i += FAN_OUT_CHUNK) {
      await pause(0);
      const chunk = ids.slice(i, i + FAN_OUT_CHUNK);
      const over = await sql<{ id: string | number }>`SELECT a.id FROM accounts a
        WHERE a.id IN (${sql.join(chunk)})
          AND (SELECT o.status_id FROM feeds o WHERE o.account_id = a.id
            ORDER BY o.status_id DESC LIMIT 1 OFFSET ${cap + slack}) IS NOT NULL`.execute(db);
      for (const { id } of over.rows) {
        const accountId = String(id);
        const gone = await sql<{ status_id: string | number | bigint }>`DELETE FROM feeds
          WHERE account_id = ${accountId} AND status_id <= (
          SELECT b.status_id FROM feeds b WHERE b.account_id = ${accountId}
          ORDER BY b.status_id DESC LIMIT 1 OFFSET ${cap}) RETURNING status_id`.execute(db);
        if (gone.rows.some((r) => String(r.status_id) === statusId)) dropped.push(accountId);
      }
    }
    return dropped;
  }

  /**
   * Back-fills `ownerId`'s feed with `authorId`'s newest `limit` posts and boosts that home would
   * show (public, unlisted and private; only newer than `afterId` when given), when a follow
   * starts: Mastodon's merge into home. The same home filters as `fanOut` apply (boosts only when
   * the follow shows them and the boosted post is not in the feed yet, replies to others only
   * when the owner follows them, the follow's languages, blocks and mutes, and nothing by an
   * account the owner keeps in an exclusive list, as fan-out's `removeFromExclusiveHomes`).
   * Answers how many entries were added.
   */
  async mergeInto(
    ownerId: string,
    authorId: string,
    limit: number,
    afterId: string | undefined,
    db: Kysely<DB> = this.#db,
  ): Promise<number> {
    const after = afterId === undefined ? sql`` : sql`AND c.id > ${afterId}`;
    const r = await sql`INSERT INTO feeds (account_id, status_id, reblog_of_id)
      SELECT f.account_id, s.id, s.reblog_of_id
      FROM (SELECT c.id FROM statuses c WHERE c.account_id = ${authorId} AND c.deleted_at IS NULL
          AND c.visibility IN ('public', 'unlisted', 'private') ${after}
          ORDER BY c.id DESC LIMIT ${limit}) recent
      JOIN statuses s ON s.id = recent.id
      JOIN follows f ON f.account_id = ${ownerId} AND f.target_account_id = s.account_id
      LEFT JOIN statuses o ON o.id = s.reblog_of_id
      WHERE (s.reblog_of_id IS NULL OR (f.show_reblogs = TRUE AND o.deleted_at IS NULL AND NOT EXISTS (
          SELECT 1 FROM feeds x WHERE x.account_id = f.account_id
            AND (x.status_id = s.reblog_of_id OR x.reblog_of_id = s.reblog_of_id))))
        AND ${languageAllowed("f", "s")}
        AND (s.in_reply_to_account_id IS NULL OR s.in_reply_to_account_id = s.account_id
          OR s.in_reply_to_account_id = f.account_id
          OR EXISTS (SELECT 1 FROM follows rf WHERE rf.account_id = f.account_id
            AND rf.target_account_id = s.in_reply_to_account_id))
        AND ${homeFilterAllows(sql.ref("f.account_id"), new Date().toISOString())}
        AND NOT EXISTS (SELECT 1 FROM list_accounts xa JOIN lists xl ON xl.id = xa.list_id
          WHERE xl.account_id = f.account_id AND xl.exclusive = TRUE AND xa.account_id = s.account_id)
      ON CONFLICT (account_id, status_id) DO NOTHING`.execute(db);
    return Number(r.numAffectedRows ?? 0);
  }

  /** Takes `authorId`'s posts and boosts out of `ownerId`'s feed (Mastodon's unmerge, on unfollow). */
  async unmerge(ownerId: string, authorId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`DELETE FROM feeds WHERE feeds.account_id = ${ownerId}
      AND EXISTS (SELECT 1 FROM statuses s WHERE s.id = feeds.status_id AND s.account_id = ${authorId})`.execute(db);
  }

  /** Trims one feed to its newest `cap` entries. */
  async trimFeed(ownerId: string, cap: number, db: Kysely<DB> = this.#db): Promise<void> {
    await sql`DELETE FROM feeds WHERE account_id = ${ownerId} AND status_id < (
      SELECT f.status_id FROM feeds f WHERE f.account_id = ${ownerId}
      ORDER BY f.status_id DESC LIMIT 1 OFFSET ${cap - 1})`.execute(db);
  }

  /** The oldest entry of a feed, when it holds at least `atLeast` entries (else undefined). */
  async oldestWhenAtLeast(ownerId: string, atLeast: number): Promise<string | undefined> {
    const r = await this.#db
      .selectFrom("feeds")
      .select("status_id")
      .where("account_id", "=", ownerId)
      .orderBy("status_id", "desc")
      .offset(atLeast - 1)
      .limit(1)
      .executeTakeFirst();
    if (!r) return undefined;
    const min = await this.#db
      .selectFrom("feeds")
      .select((eb) => eb.fn.min("status_id").as("id"))
      .where("account_id", "=", ownerId)
      .executeTakeFirst();
    return min?.id === null || min?.id === undefined ? undefined : String(min.id);
  }

  /** Takes a status out of every feed. */
  async removeStatus(statusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("feeds").where("status_id", "=", statusId).execute();
  }

  /** One page of an account's feed: status ids, newest first. */
  async page(accountId: string, window: IdWindow): Promise<string[]> {
    // The ids as one text, in the page's order: one row to read instead of 40 (each a 64-bit
    // integer made a BigInt, then a string); the SQL is made once per window shape.
    const asc = idWindowOrder(window) === "asc";
    const params: unknown[] = [accountId];
    let where = "account_id = $1";
    for (const [v, op] of [
      [window.maxId, "<"],
      [window.sinceId, ">"],
      [window.minId, ">"],
    ] as const) {
      if (v === undefined) continue;
      params.push(v);
      where += ` AND status_id ${op} $${params.length}`;
    }
    params.push(window.limit);
    const order = asc ? "ASC" : "DESC";
    const ids = this.#postgres
      ? `string_agg(p.status_id::text, ',' ORDER BY p.status_id ${order})`
      : `group_concat(p.status_id, ',' ORDER BY p.status_id ${order})`;
    let text = `SELECT ${ids} AS ids FROM (SELECT status_id FROM feeds WHERE ${where}
      ORDER BY status_id ${order} LIMIT $${params.length}) p`;
    if (!this.#postgres) text = text.replace(/\$\d+/g, "?");
    const r = await this.#db.executeQuery<{ ids: string | null }>(CompiledQuery.raw(text, params));
    const found = r.rows[0]?.ids;
    if (found === null || found === undefined || found === "") return [];
    const out = found.split(",");
    return asc ? out.reverse() : out;
  }

  /** How many entries an account's feed holds. */
  async count(accountId: string): Promise<number> {
    const r = await this.#db
      .selectFrom("feeds")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
