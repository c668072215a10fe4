import type { AppContext } from "../../context.ts";

/** One local account as administrators see it in listings. */
export interface LocalAccountSummary {
  accountId: string;
  username: string;
  email: string;
  role: string;
  confirmed: boolean;
  approved: boolean;
  disabled: boolean;
  createdAt: string;
}

const PAGE_SIZE = 500;

/**
 * One page of live local accounts (deleted ones have no user and are left out), in creation
 * order; pass the last `accountId` as `afterAccountId` for the next page.
 */
export async function listLocalAccounts(
  ctx: AppContext,
  opts: { afterAccountId?: string; limit?: number } = {},
): Promise<LocalAccountSummary[]> {
  const limit = Math.min(Math.max(opts.limit ?? PAGE_SIZE, 1), PAGE_SIZE);
  const users = await ctx.repos.users.listWithUsernames({ afterAccountId: opts.afterAccountId, limit });
  const summaries: LocalAccountSummary[] = [];
  for (const u of users) {
    const role = await ctx.roles.get(u.roleId);
    summaries.push({
      accountId: u.accountId,
      username: u.username,
      email: u.email,
      role: role?.name ?? "everyone",
      confirmed: u.confirmedAt !== null,
      approved: u.approved,
      disabled: u.disabled,
      createdAt: u.createdAt,
    });
  }
  return summaries;
}

/** Every live local account, fetched a page at a time so memory stays bounded on big servers. */
export async function* eachLocalAccount(ctx: AppContext): AsyncGenerator<LocalAccountSummary> {
  let after: string | undefined;
  for (;;) {
    const page = await listLocalAccounts(ctx, { afterAccountId: after });
    yield* page;
    if (page.length < PAGE_SIZE) return;
    after = page[page.length - 1].accountId;
  }
}
