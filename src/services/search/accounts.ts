import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { MAX_QUERY_CHARS, prefixFts5, prefixTsQuery, wordsOf } from "./query.ts";

/** Shorter queries from anonymous callers find only the account they name exactly (Mastodon's rule). */
const MIN_ANONYMOUS_QUERY = 3;
const USERNAME = /^[a-z0-9_]+(?:[a-z0-9_.-]*[a-z0-9_])?$/i;

export interface AccountSearchOptions {
  viewerId?: string;
  following: boolean;
  limit: number;
  offset: number;
}

/** The domain of `user@domain` as stored (lower case, punycode), or null for this server. */
function normaliseDomain(ctx: AppContext, raw: string): string | null {
  const lowered = raw.trim().toLowerCase();
  if (lowered === "") return null;
  let host = lowered;
  try {
    if (!/[\s/?#\\@]/.test(lowered)) host = new URL(`http://${lowered}`).host;
  } catch {
    // Not a host name: kept as typed, it simply matches no domain.
  }
  return host === ctx.config.localDomain || host === ctx.config.webDomain ? null : host;
}

/**
 * Account search (`/api/v2/search` and `/api/v1/accounts/search`): every word of the query must
 * start a word of the display name, username or domain (case-insensitive); `@user` and
 * `user@domain` name an account, which then comes first. Unconfirmed, unapproved, suspended,
 * deleted and moved accounts are never found. `following` keeps the accounts the viewer follows
 * (and the viewer). Signed in, accounts the viewer follows or is followed by come first.
 */
export async function searchAccounts(ctx: AppContext, q: string, opts: AccountSearchOptions): Promise<Account[]> {
  const text = q.trim().slice(0, MAX_QUERY_CHARS).replace(/^@/, "");
  if (text === "" || opts.limit <= 0) return [];
  let words = wordsOf(text);
  let exact: { username: string; domain: string | null } | undefined;
  let domainPrefix: string | undefined;
  if (!/\s/.test(text)) {
    const at = text.indexOf("@");
    const username = at === -1 ? text : text.slice(0, at);
    const domain = at === -1 ? null : normaliseDomain(ctx, text.slice(at + 1));
    if (at !== -1) {
      words = wordsOf(username);
      if (domain !== null) domainPrefix = domain;
    }
    if (USERNAME.test(username)) exact = { username, domain };
  }
  return ctx.repos.search.accounts({
    match: { sqlite: prefixFts5(words), postgres: prefixTsQuery(words) },
    domainPrefix,
    exact,
    exactOnly: opts.viewerId === undefined && text.length < MIN_ANONYMOUS_QUERY,
    viewerId: opts.viewerId,
    following: opts.following && opts.viewerId !== undefined,
    limit: opts.limit,
    offset: opts.offset,
  });
}
