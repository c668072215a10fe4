import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { DomainBlockRow } from "../../db/repositories/domain-blocks.ts";
import { queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { normalizeDomain } from "../../lib/domains.ts";
import { unprocessable } from "../../lib/errors.ts";
import type { IdWindow } from "../../lib/pagination.ts";

/**
 * The `domain` parameter as Mastodon stores it (`normalizeDomain`); anything else, or nothing, is a
 * 422 that changes nothing.
 */
export function domainParam(value: unknown): string {
  if (value === undefined || value === null || value === "") {
    throw unprocessable("Validation failed: Domain can't be blank");
  }
  const domain = typeof value === "string" ? normalizeDomain(value) : null;
  if (domain === null) throw unprocessable("Validation failed: Domain is invalid");
  return domain;
}

/** This server's own host names (the port dropped), which cannot be blocked. */
function ownDomains(ctx: AppContext): Set<string> {
  const hosts = [ctx.config.localDomain, ctx.config.webDomain].map((d) => normalizeDomain(d.replace(/:\d+$/, "")));
  return new Set(hosts.filter((d): d is string => d !== null));
}

/**
 * `POST /api/v1/domain_blocks`, as Mastodon's `block_domain!` and AfterBlockDomainFromAccountService,
 * in one transaction of a fixed number of statements: the block is recorded (again: nothing more
 * changes), the follows between the caller and accounts of the domain end both ways (counted down
 * on every account), follow requests either way are withdrawn, the domain's accounts leave the
 * caller's lists, posts and boosts of the domain leave the caller's home and list timelines, and
 * the notifications its accounts caused the caller are deleted. From then on `domainHiddenCondition` hides the domain.
 * After the commit the domain's servers are told, as Mastodon's service does: `Undo` of each of
 * the caller's follows (and requests) there, `Reject` of each of their follows of the caller.
 */
export async function blockDomain(ctx: AppContext, account: Account, domain: string): Promise<void> {
  if (ownDomains(ctx).has(domain)) throw unprocessable("Validation failed: Domain cannot be your own server");
  const repo = ctx.repos.domainBlocks;
  const now = new Date();
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await repo.insert({ id: ctx.ids.next(now), account_id: account.id, domain, created_at: now.toISOString() }, trx);
    const pairs = await ctx.repos.follows.pairsWithDomain(account.id, domain, trx);
    for (const { otherId, uri } of pairs.outgoing) {
      if (uri) queueDelivery(jobs, { type: "follow.undo", accountId: account.id, targetId: otherId, uri });
    }
    for (const { otherId, uri } of pairs.incoming) {
      queueDelivery(jobs, { type: "follow.reject", accountId: account.id, followerId: otherId, uri });
    }
    await ctx.repos.follows.severWithDomain(account.id, domain, trx);
    await repo.clearFromFeeds(account.id, domain, trx);
    await repo.deleteNotificationsFrom(account.id, domain, trx);
  });
}

/** `DELETE /api/v1/domain_blocks`: succeeds whether or not the domain was blocked; follows do not come back. */
export async function unblockDomain(ctx: AppContext, account: Account, domain: string): Promise<void> {
  await ctx.repos.domainBlocks.delete(account.id, domain);
}

/** `GET /api/v1/domain_blocks`: one page of the caller's blocked domains, newest first. */
export function domainBlocksPage(ctx: AppContext, account: Account, window: IdWindow): Promise<DomainBlockRow[]> {
  return ctx.repos.domainBlocks.page(account.id, window);
}

/** `GET /api/v1/domain_blocks/preview`: the follows a block of `domain` would end, each way. */
export async function previewDomainBlock(
  ctx: AppContext,
  account: Account,
  domain: string,
): Promise<{ following_count: number; followers_count: number }> {
  const c = await ctx.repos.domainBlocks.followCounts(account.id, domain);
  return { following_count: c.following, followers_count: c.followers };
}
