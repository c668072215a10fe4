import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { JobQueue } from "../../infra/queue/interface.ts";

/**
 * The background jobs of resolving and backfill, registered and queued from here without loading
 * Fedify: each handler imports the federation code when it first runs (a server nobody federates
 * with never loads it).
 */
export const REFRESH_ACCOUNT_JOB = "accounts.refresh";
export const BACKFILL_OUTBOX_JOB = "backfill.outbox";
export const BACKFILL_REPLIES_JOB = "backfill.replies";

/** A remote account is fetched again when its copy is older than this (Mastodon: a day). */
export const ACCOUNT_STALE_MS = 24 * 3600_000;
/** A thread's replies are fetched again at most this often. */
export const REPLIES_BACKFILL_EVERY_MS = 15 * 60_000;

export function registerResolveJobs(queue: JobQueue): void {
  queue.register(REFRESH_ACCOUNT_JOB, async (ctx, payload: { accountId?: unknown }) => {
    if (typeof payload?.accountId !== "string") return;
    await (await import("./accounts.ts")).refreshAccount(ctx, payload.accountId);
  });
  queue.register(BACKFILL_OUTBOX_JOB, async (ctx, payload: { accountId?: unknown }) => {
    if (typeof payload?.accountId !== "string") return;
    await (await import("../backfill/outbox.ts")).backfillOutbox(ctx, payload.accountId);
  });
  queue.register(BACKFILL_REPLIES_JOB, async (ctx, payload: { statusId?: unknown }) => {
    if (typeof payload?.statusId !== "string") return;
    await (await import("../backfill/replies.ts")).backfillReplies(ctx, payload.statusId);
  });
}

/** Queues a refresh of remote accounts whose copy is stale (on access; at most one job each). */
export async function refreshIfStale(ctx: AppContext, accounts: readonly Account[]): Promise<void> {
  for (const a of accounts) {
    if (a.domain === null) continue;
    const info = await ctx.repos.accounts.remoteInfo(a.id);
    const fetchedAt = info?.fetchedAt ? Date.parse(info.fetchedAt) : 0;
    if (Date.now() - fetchedAt < ACCOUNT_STALE_MS) continue;
    await ctx.queue.enqueue(
      REFRESH_ACCOUNT_JOB,
      { accountId: a.id },
      { dedupeKey: `${REFRESH_ACCOUNT_JOB}:${a.id}`, attempts: 2 },
    );
  }
}

/** Queues the backfill of a newly resolved remote account's recent posts. */
export async function queueOutboxBackfill(ctx: AppContext, accountId: string): Promise<void> {
  await ctx.queue.enqueue(
    BACKFILL_OUTBOX_JOB,
    { accountId },
    { dedupeKey: `${BACKFILL_OUTBOX_JOB}:${accountId}`, attempts: 2 },
  );
}

/**
 * Queues the backfill of a remote thread's replies when the thread is opened, at most once per
 * status every 15 minutes (a kv mark, shared by every process).
 */
export async function queueRepliesBackfill(ctx: AppContext, statusId: string): Promise<void> {
  const key = `backfill:replies:${statusId}`;
  const now = new Date();
  if (await ctx.repos.kv.get(key, now.toISOString())) return;
  await ctx.repos.kv.set(key, "1", new Date(now.getTime() + REPLIES_BACKFILL_EVERY_MS).toISOString());
  await ctx.queue.enqueue(
    BACKFILL_REPLIES_JOB,
    { statusId },
    { dedupeKey: `${BACKFILL_REPLIES_JOB}:${statusId}`, attempts: 1 },
  );
}
