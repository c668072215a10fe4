import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { ExportCounts, ExportedAccount } from "../../db/repositories/data-exports.ts";

/** The CSV files of the export page, by the name of their download (`/settings/exports/NAME.csv`). */
export const CSV_EXPORTS = ["follows", "lists", "blocks", "mutes", "domain_blocks", "bookmarks"] as const;
export type CsvExport = (typeof CSV_EXPORTS)[number];

/** The file name a download is saved under: Mastodon's, which its import recognises. */
export const EXPORT_FILENAMES: Record<CsvExport, string> = {
  follows: "following_accounts.csv",
  lists: "lists.csv",
  blocks: "blocked_accounts.csv",
  mutes: "muted_accounts.csv",
  domain_blocks: "blocked_domains.csv",
  bookmarks: "bookmarks.csv",
};

/** Rows read per query while a file is written. */
const BATCH = 1000;

/** Ruby's CSV writes booleans as `true` / `false` (csv-stringify's default would be 1 and empty). */
const CSV_OPTIONS = { cast: { boolean: (v: boolean) => (v ? "true" : "false") } };

/** Everything the export page shows. */
export interface ExportSummary extends ExportCounts {
  statuses: number;
  follows: number;
  followers: number;
}

export async function exportSummary(ctx: AppContext, account: Account): Promise<ExportSummary> {
  const counts = await ctx.repos.dataExports.counts(account.id, new Date().toISOString());
  return {
    ...counts,
    statuses: account.statusesCount,
    follows: account.followingCount,
    followers: account.followersCount,
  };
}

/** An account's address as exports write it: `user@domain`, with this server's domain for local ones. */
export function exportAcct(ctx: AppContext, a: ExportedAccount): string {
  return `${a.username}@${a.domain ?? ctx.config.localDomain}`;
}

/**
 * Batches of CSV rows, each batch read with one query after the previous one was written
 * (`cursor` is the batch's last row id). Returns the rows and the next cursor, or undefined at the end.
 */
type Pager = (cursor: string | undefined) => Promise<{ rows: unknown[][]; next: string | undefined } | undefined>;

function paged<T extends { id: string }>(
  read: (cursor: string | undefined) => Promise<T[]>,
  toRow: (r: T) => unknown[],
): Pager {
  return async (cursor) => {
    const batch = await read(cursor);
    if (batch.length === 0) return undefined;
    return { rows: batch.map(toRow), next: batch.length < BATCH ? undefined : batch[batch.length - 1].id };
  };
}

/** The header row and the row pages of one export (Mastodon's Export, column for column). */
function exportRows(ctx: AppContext, account: Account, kind: CsvExport): { header?: string[]; pages: Pager[] } {
  const repo = ctx.repos.dataExports;
  const id = account.id;
  const now = new Date().toISOString();
  const acct = (a: ExportedAccount) => exportAcct(ctx, a);
  switch (kind) {
    case "follows":
      return {
        header: ["Account address", "Show boosts", "Notify on new posts", "Languages"],
        pages: [
          paged(
            (c) => repo.followsBatch(id, c, BATCH),
            (f) => [acct(f), f.showReblogs, f.notify, f.languages?.join(", ") ?? null],
          ),
        ],
      };
    case "blocks":
      return {
        pages: [
          paged(
            (c) => repo.blocksBatch(id, c, BATCH),
            (b) => [acct(b)],
          ),
        ],
      };
    case "mutes":
      return {
        header: ["Account address", "Hide notifications"],
        pages: [
          paged(
            (c) => repo.mutesBatch(id, now, c, BATCH),
            (m) => [acct(m), m.hideNotifications],
          ),
        ],
      };
    case "domain_blocks":
      return {
        pages: [
          paged(
            (c) => repo.domainBlocksBatch(id, c, BATCH),
            (d) => [d.domain],
          ),
        ],
      };
    case "bookmarks":
      return {
        pages: [
          paged(
            (c) => repo.statusUrisBatch("bookmarks", id, c, BATCH),
            (b) => [b.uri],
          ),
        ],
      };
    case "lists": {
      // One pager per list (at most 50), read when the previous list is written.
      let lists: Promise<{ id: string; title: string }[]> | undefined;
      const pages: Pager[] = [];
      const listsOf = () => (lists ??= repo.lists(id));
      for (let i = 0; i < 50; i++) {
        pages.push(async (cursor) => {
          const list = (await listsOf())[i];
          if (!list) return undefined;
          return paged(
            (c) => repo.listMembersBatch(list.id, c, BATCH),
            (m) => [list.title, acct(m)],
          )(cursor);
        });
      }
      return { pages };
    }
  }
}

/**
 * One CSV export as a stream: the header (where Mastodon writes one), then the rows, a batch of
 * rows read from the database each time the previous batch has been sent.
 */
export function csvExportStream(ctx: AppContext, account: Account, kind: CsvExport): ReadableStream<Uint8Array> {
  const { header, pages } = exportRows(ctx, account, kind);
  const encoder = new TextEncoder();
  let started = false;
  let page = 0;
  let cursor: string | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // csv-stringify loads on first use, not at start-up.
        const { stringify } = await import("csv-stringify/sync");
        if (!started) {
          started = true;
          if (header) {
            controller.enqueue(encoder.encode(stringify([header], CSV_OPTIONS)));
            return;
          }
        }
        while (page < pages.length) {
          const out = await pages[page](cursor);
          if (out === undefined) {
            page += 1;
            cursor = undefined;
            continue;
          }
          if (out.next === undefined) {
            page += 1;
            cursor = undefined;
          } else {
            cursor = out.next;
          }
          controller.enqueue(encoder.encode(stringify(out.rows, CSV_OPTIONS)));
          return;
        }
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A whole export as text (tests and small callers; the pages stream it). */
export async function csvExportText(ctx: AppContext, account: Account, kind: CsvExport): Promise<string> {
  return new Response(csvExportStream(ctx, account, kind)).text();
}
