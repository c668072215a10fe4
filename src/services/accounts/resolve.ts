import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { refreshIfStale } from "../../federation/resolve/queue.ts";
import { parseAcct } from "./find-accounts.ts";

/**
 * The account `acct` (`user`, `user@domain`, `@user@domain`) names: a local one, a known remote
 * one (refreshed in the background when stale), or an unknown remote one resolved now through
 * WebFinger and stored (federation/resolve/, loaded only then). Bounded in time by `signal`
 * (15 s by default); undefined when there is none.
 */
export async function resolveAcct(
  ctx: AppContext,
  acct: string,
  opts: { signal?: AbortSignal } = {},
): Promise<Account | undefined> {
  const parsed = parseAcct(ctx, acct);
  if (!parsed) return undefined;
  const known = await ctx.repos.accounts.getByUsername(parsed.username, parsed.domain);
  if (known || parsed.domain === null) {
    if (known) await refreshIfStale(ctx, [known]);
    return known;
  }
  const { resolveRemoteAccount } = await import("../../federation/resolve/accounts.ts");
  return resolveRemoteAccount(ctx, parsed.username, parsed.domain, opts);
}

/** A remote profile or post by its URL, resolved now (federation/resolve/objects.ts). */
export async function resolveRemoteUrl(ctx: AppContext, url: URL) {
  const { resolveUrl } = await import("../../federation/resolve/objects.ts");
  return resolveUrl(ctx, url);
}
