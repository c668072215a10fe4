import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";
import {
  broadcastAuthorCondition,
  hasMediaCondition,
  notBlockedOrMutedCondition,
  type Reader,
  visibleCondition,
} from "./status-visibility.ts";
import { type Status, toStatus } from "./statuses.ts";

/**
 * The pages of statuses read by visibility: an account's statuses and pins, and the public and
 * hashtag timelines (reads only; `StatusesRepository` keeps the rows).
 */
export class StatusPagesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** One page of an account's live statuses the reader may see (by visibility, follows and mentions). */
  async accountStatusesPage(
    accountId: string,
    reader: Reader,
    opts: { excludeReplies: boolean; excludeReblogs: boolean; onlyMedia: boolean; tagged?: string },
    window: IdWindow,
  ): Promise<Status[]> {
    let q = this.#db
      .selectFrom("statuses")
      .selectAll("statuses")
      .where("statuses.account_id", "=", accountId)
      .where("statuses.deleted_at", "is", null)
      .where(visibleCondition(reader));
    if (opts.excludeReplies) {
      q = q.where((eb) =>
        eb.or([eb("statuses.in_reply_to_id", "is", null), eb("statuses.in_reply_to_account_id", "=", accountId)]),
      );
    }
    if (opts.excludeReblogs) q = q.where("statuses.reblog_of_id", "is", null);
    if (opts.onlyMedia) {
      q = q.where(hasMediaCondition);
    }
    if (opts.tagged !== undefined) {
      const tag = normalizeHashtag(opts.tagged.replace(/^#/, ""));
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom("statuses_tags")
            .innerJoin("tags", "tags.id", "statuses_tags.tag_id")
            .select("statuses_tags.tag_id")
            .whereRef("statuses_tags.status_id", "=", "statuses.id")
            .where(sql<string>`lower(tags.name)`, "=", tag),
        ),
      );
    }
    q = applyWindow(q, "statuses.id", window);
    const rows = await q.orderBy("statuses.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toStatus));
  }

  /** Ids of the tags with these names, by normalised name (lib/text/hashtag-name.ts). */
  async tagIdsByName(names: readonly string[]): Promise<Map<string, string>> {
    const normalized = [...new Set(names.map(normalizeHashtag))].filter((n) => n !== "");
    if (normalized.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom("tags")
      .select(["id", "name"])
      .where(sql<string>`lower(name)`, "in", normalized)
      .execute();
    return new Map(rows.map((r) => [r.name.toLowerCase(), String(r.id)]));
  }

  /**
   * One page of the public timeline (Mastodon's PublicFeed and TagFeed): live public posts by
   * accounts neither suspended nor silenced (`broadcastAuthorCondition`). Without
   * tags, replies to others and boosts are left out; with tags, a post needs one of `anyTagIds`,
   * every one of `allTagIds` and none of `noneTagIds`.
   */
  async publicTimelinePage(
    opts: {
      local: boolean;
      remote: boolean;
      onlyMedia: boolean;
      tags?: { anyTagIds: readonly string[]; allTagIds: readonly string[]; noneTagIds: readonly string[] };
      /** Leaves out accounts the reader blocks, mutes or is blocked by. */
      reader?: Reader;
    },
    window: IdWindow,
  ): Promise<Status[]> {
    let q = this.#db
      .selectFrom("statuses")
      .selectAll("statuses")
      .where("statuses.visibility", "=", "public")
      .where("statuses.deleted_at", "is", null)
      .where(broadcastAuthorCondition);
    if (opts.reader?.accountId !== undefined) {
      q = q.where(notBlockedOrMutedCondition(opts.reader, new Date().toISOString()));
    }
    if (opts.local) q = q.where(sql<boolean>`statuses.local = TRUE`);
    if (opts.remote) q = q.where(sql<boolean>`statuses.local = FALSE`);
    if (opts.onlyMedia) {
      q = q.where(hasMediaCondition);
    }
    const tags = opts.tags;
    if (tags === undefined) {
      q = q
        .where("statuses.reblog_of_id", "is", null)
        .where((eb) =>
          eb.or([
            eb("statuses.in_reply_to_id", "is", null),
            eb("statuses.in_reply_to_account_id", "=", eb.ref("statuses.account_id")),
          ]),
        );
    } else {
      const tagged = (ids: readonly string[]) =>
        sql<boolean>`EXISTS (SELECT 1 FROM statuses_tags st WHERE st.status_id = statuses.id
          AND st.tag_id IN (${sql.join(ids.map((id) => sql`${id}`))}))`;
      q = q.where(tagged(tags.anyTagIds));
      for (const id of tags.allTagIds) q = q.where(tagged([id]));
      if (tags.noneTagIds.length > 0) q = q.where(sql<boolean>`NOT ${tagged(tags.noneTagIds)}`);
    }
    q = applyWindow(q, "statuses.id", window);
    const rows = await q.orderBy("statuses.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toStatus));
  }

  /** The live statuses an account pinned, newest pin first. */
  async pinnedOf(accountId: string, reader: Reader): Promise<Status[]> {
    const rows = await this.#db
      .selectFrom("status_pins")
      .innerJoin("statuses", "statuses.id", "status_pins.status_id")
      .selectAll("statuses")
      .where("status_pins.account_id", "=", accountId)
      .where("statuses.deleted_at", "is", null)
      .where(visibleCondition(reader))
      .orderBy("status_pins.id", "desc")
      .execute();
    return rows.map(toStatus);
  }
}
