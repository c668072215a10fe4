import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { BulkImport, BulkImportRow, BulkImportRowData } from "../../db/repositories/bulk-imports.ts";
import { ApiError } from "../../lib/errors.ts";
import { resolveAcct } from "../accounts/resolve.ts";
import { follow, unfollow } from "../follows/follow.ts";
import { addAccounts, createList, deleteList, listMembersPage, ownLists, removeAccounts } from "../lists/lists.ts";
import { block, mute, unblock, unmute } from "../relationships/blocks-mutes.ts";
import { blockDomain, domainParam, unblockDomain } from "../relationships/domain-blocks.ts";
import { bookmark, unbookmark } from "../statuses/actions.ts";
import { accountKey, IMPORT_JOB, matchKey } from "./imports.ts";

const logger = getLogger(["gannet", "data", "import"]);

/** Rows handled per job run; the job enqueues itself for the next batch. */
const ROWS_PER_RUN = 100;
/** Relationship rows read at a time while an overwrite compares them with the file. */
const PAGE = 1000;

export interface ImportJob {
  importId: string;
  /** The last row handled (paging across runs). */
  after?: string;
}

/** Every row of the import, by the key the overwrite matches on. */
async function rowsByKey(
  ctx: AppContext,
  imp: BulkImport,
  keyOf: (d: BulkImportRowData) => string | undefined,
): Promise<Map<string, BulkImportRow>> {
  const out = new Map<string, BulkImportRow>();
  let after: string | undefined;
  for (;;) {
    const batch = await ctx.repos.bulkImports.rowsBatch(imp.id, after, PAGE);
    for (const row of batch) {
      const key = keyOf(row.data);
      if (key !== undefined && !out.has(key)) out.set(key, row);
    }
    if (batch.length < PAGE) return out;
    after = batch[batch.length - 1].id;
  }
}

/** Reads a relationship in pages (newest first) until the end. */
async function eachPage<T extends { id: string }>(
  read: (before: string | undefined) => Promise<T[]>,
  handle: (items: T[]) => Promise<void>,
): Promise<void> {
  let cursor: string | undefined;
  for (;;) {
    const batch = await read(cursor);
    if (batch.length > 0) await handle(batch);
    if (batch.length < PAGE) return;
    cursor = batch[batch.length - 1].id;
  }
}

/**
 * Overwrite mode, before the rows run (Mastodon's BulkImportService): what the account has that
 * the file does not list is undone (unfollowed, unblocked, unmuted, unbookmarked, the domain
 * unblocked; lists not in the file deleted and the others emptied); what both have is updated
 * from the file and its row counts as imported.
 */
async function overwrite(ctx: AppContext, imp: BulkImport, account: Account): Promise<void> {
  const repo = ctx.repos.dataExports;
  const done: string[] = [];
  const byAcct = () => rowsByKey(ctx, imp, (d) => (d.acct ? matchKey(ctx, d.acct) : undefined));
  switch (imp.type) {
    case "following": {
      const rows = await byAcct();
      const follows: { accountId: string; key: string }[] = [];
      await eachPage(
        (c) => repo.followsBatch(account.id, c, PAGE),
        async (batch) => void follows.push(...batch.map((f) => ({ accountId: f.accountId, key: accountKey(ctx, f) }))),
      );
      for (const f of follows) {
        const row = rows.get(f.key);
        if (!row) {
          await unfollow(ctx, account, f.accountId).catch(ignoreApiError);
          continue;
        }
        rows.delete(f.key);
        done.push(row.id);
        await follow(ctx, account, f.accountId, {
          showReblogs: row.data.show_reblogs,
          notify: row.data.notify,
          languages: row.data.languages,
        }).catch(ignoreApiError);
      }
      break;
    }
    case "blocking":
    case "muting": {
      const rows = await byAcct();
      const targets: { accountId: string; key: string }[] = [];
      const now = new Date().toISOString();
      await eachPage(
        (c) =>
          imp.type === "blocking" ? repo.blocksBatch(account.id, c, PAGE) : repo.mutesBatch(account.id, now, c, PAGE),
        async (batch) => void targets.push(...batch.map((b) => ({ accountId: b.accountId, key: accountKey(ctx, b) }))),
      );
      for (const t of targets) {
        const row = rows.get(t.key);
        if (!row) {
          await (imp.type === "blocking"
            ? unblock(ctx, account, t.accountId)
            : unmute(ctx, account, t.accountId)
          ).catch(ignoreApiError);
          continue;
        }
        rows.delete(t.key);
        done.push(row.id);
        if (imp.type === "muting") {
          await mute(ctx, account, t.accountId, {
            notifications: row.data.hide_notifications ?? true,
            duration: 0,
          }).catch(ignoreApiError);
        }
      }
      break;
    }
    case "domain_blocking": {
      const rows = await rowsByKey(ctx, imp, (d) => d.domain);
      const domains: string[] = [];
      await eachPage(
        (c) => repo.domainBlocksBatch(account.id, c, PAGE),
        async (batch) => void domains.push(...batch.map((d) => d.domain)),
      );
      for (const domain of domains) {
        const row = rows.get(domain);
        if (!row) await unblockDomain(ctx, account, domain);
        else {
          rows.delete(domain);
          done.push(row.id);
        }
      }
      break;
    }
    case "bookmarks": {
      const rows = await rowsByKey(ctx, imp, (d) => d.uri);
      for (const b of await repo.bookmarkedStatuses(account.id)) {
        const row = rows.get(b.uri);
        if (!row) await unbookmark(ctx, account, b.statusId).catch(ignoreApiError);
        else {
          rows.delete(b.uri);
          done.push(row.id);
        }
      }
      break;
    }
    case "lists": {
      const titles = new Set((await rowsByKey(ctx, imp, (d) => d.list_name)).keys());
      for (const list of await ownLists(ctx, account.id)) {
        if (!titles.has(list.title)) {
          await deleteList(ctx, account, list.id);
          continue;
        }
        const members = await listMembersPage(ctx, list, null);
        await removeAccounts(
          ctx,
          account,
          list.id,
          members.accounts.map((a) => a.id),
        );
      }
      break;
    }
  }
  await ctx.repos.bulkImports.deleteRows(done);
  await ctx.repos.bulkImports.progress(imp.id, done.length, done.length);
}

function ignoreApiError(e: unknown): void {
  if (!(e instanceof ApiError)) throw e;
}

/** The account a row names: local, known, or resolved now through WebFinger. */
async function targetAccount(ctx: AppContext, acct: string | undefined): Promise<Account | undefined> {
  if (!acct) return undefined;
  return resolveAcct(ctx, acct);
}

/** One row through the same services as the API (Mastodon's BulkImportRowService); false when it failed. */
async function importRow(ctx: AppContext, imp: BulkImport, account: Account, d: BulkImportRowData): Promise<boolean> {
  switch (imp.type) {
    case "following": {
      const target = await targetAccount(ctx, d.acct);
      if (!target) return false;
      await follow(ctx, account, target.id, { showReblogs: d.show_reblogs, notify: d.notify, languages: d.languages });
      return true;
    }
    case "blocking": {
      const target = await targetAccount(ctx, d.acct);
      if (!target) return false;
      await block(ctx, account, target.id);
      return true;
    }
    case "muting": {
      const target = await targetAccount(ctx, d.acct);
      if (!target) return false;
      await mute(ctx, account, target.id, { notifications: d.hide_notifications ?? true, duration: 0 });
      return true;
    }
    case "domain_blocking":
      await blockDomain(ctx, account, domainParam(d.domain));
      return true;
    case "bookmarks": {
      // Posts known here (local, or remote ones this server has seen), by their URI.
      const status = d.uri ? await ctx.repos.statuses.getByUri(d.uri) : undefined;
      if (!status || status.deletedAt !== null) return false;
      await bookmark(ctx, account, status.id);
      return true;
    }
    case "lists": {
      const title = d.list_name?.trim();
      const target = await targetAccount(ctx, d.acct);
      if (!title || !target) return false;
      const list =
        (await ownLists(ctx, account.id)).find((l) => l.title === title) ?? (await createList(ctx, account, { title }));
      if (target.id !== account.id) await follow(ctx, account, target.id, {});
      const listed = await ctx.repos.lists.membersAmong(list.id, [target.id]);
      if (!listed.has(target.id)) await addAccounts(ctx, account, list.id, [target.id]);
      return true;
    }
  }
}

/**
 * The `data.import` job: a confirmed import runs (its overwrite first, then its rows, a batch per
 * run). A row that worked is deleted and counted imported; one that failed stays, for the
 * failures file. The import is finished when no rows are left to run.
 */
export async function runImport(ctx: AppContext, job: ImportJob): Promise<void> {
  if (typeof job?.importId !== "string") return;
  const repo = ctx.repos.bulkImports;
  const imp = await repo.getById(job.importId);
  if (!imp || imp.state === "finished" || imp.state === "unconfirmed") return;
  const account = await ctx.repos.accounts.getById(imp.accountId);
  if (!account) return;
  if (imp.state === "scheduled") {
    if (!(await repo.transition(imp.id, "scheduled", "in_progress"))) return;
    if (imp.overwrite) await overwrite(ctx, imp, account);
  }
  const rows = await repo.rowsBatch(imp.id, job.after, ROWS_PER_RUN);
  const imported: string[] = [];
  for (const row of rows) {
    try {
      if (await importRow(ctx, imp, account, row.data)) imported.push(row.id);
    } catch (e) {
      // Refused (blocked, not found, not allowed) or unreachable: the row stays as a failure.
      logger.info("Import {id}: a {type} row failed: {error}", { id: imp.id, type: imp.type, error: String(e) });
    }
  }
  await repo.deleteRows(imported);
  await repo.progress(imp.id, rows.length, imported.length);
  const last = rows.at(-1);
  if (rows.length === ROWS_PER_RUN && last) {
    await ctx.queue.enqueue(IMPORT_JOB, { importId: imp.id, after: last.id } satisfies ImportJob);
    return;
  }
  await repo.finish(imp.id, new Date().toISOString());
}

/** Imports older than a week, and unconfirmed ones older than ten minutes, go (a periodic task). */
export async function purgeOldImports(ctx: AppContext, archiveMs: number, confirmMs: number): Promise<void> {
  const now = Date.now();
  const ids = await ctx.repos.bulkImports.expired(
    new Date(now - archiveMs).toISOString(),
    new Date(now - confirmMs).toISOString(),
    500,
  );
  for (const id of ids) await ctx.repos.bulkImports.delete(id);
}
