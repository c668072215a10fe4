import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { TagRow } from "../../db/repositories/search.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isId } from "../../lib/ids.ts";
import { resolveAcct, resolveRemoteUrl } from "../accounts/resolve.ts";
import { filterVisible } from "../statuses/views.ts";
import { searchAccounts } from "./accounts.ts";
import { operatorFilters } from "./operators.ts";
import { MAX_QUERY_CHARS, parseSearchInput, toFts5, toTsQuery } from "./query.ts";
import { searchTags } from "./tags.ts";

/** The most results a search may skip (`offset`), so no request walks a whole index. */
export const MAX_OFFSET = 10_000;

export interface SearchOptions {
  /** `accounts`, `hashtags` or `statuses`; absent for all three (any other value finds nothing). */
  type?: string;
  limit: number;
  offset: number;
  /** The signed-in caller's account. */
  viewer?: Account;
  following: boolean;
  accountId?: string;
  minId?: string;
  maxId?: string;
  excludeUnreviewed: boolean;
  /** Resolve unknown remote accounts (`user@domain`) and URLs (signed-in callers only). */
  resolve?: boolean;
}

export interface SearchResults {
  accounts: Account[];
  statuses: Status[];
  hashtags: TagRow[];
}

/**
 * A status or account of this server named by its URL (`/@user/123`, `/users/user/statuses/123`,
 * `/@user`, `/users/user`), if the viewer may see it.
 */
async function localResource(
  ctx: AppContext,
  q: string,
  viewerId: string | undefined,
): Promise<{ kind: "accounts"; account: Account } | { kind: "statuses"; status: Status } | undefined> {
  let url: URL;
  try {
    url = new URL(q);
  } catch {
    return undefined;
  }
  if (url.host !== new URL(ctx.config.baseUrl).host) return undefined;
  const path = url.pathname.replace(/\/+$/, "");
  const statusPath = /^\/(?:@([^/@]+)|users\/([^/]+)\/statuses)\/(\d+)$/.exec(path);
  const accountPath = /^\/(?:@([^/@]+)|users\/([^/]+))$/.exec(path);
  let username: string;
  try {
    username = decodeURIComponent((statusPath ?? accountPath)?.slice(1, 3).find((x) => x) ?? "");
  } catch {
    return undefined;
  }
  if (username === "") return undefined;
  const account = await ctx.repos.accounts.getByUsername(username, null);
  if (!account || !(await ctx.repos.accounts.searchableIds([account.id])).has(account.id)) return undefined;
  if (accountPath) return { kind: "accounts", account };
  const id = statusPath?.[3];
  if (!isId(id)) return undefined;
  const status = await ctx.repos.statuses.getById(id);
  if (!status || status.accountId !== account.id) return undefined;
  const [visible] = await filterVisible(ctx, [status], viewerId);
  return visible && { kind: "statuses", status: visible };
}

/** `user@domain` or `@user@domain`: what `resolve` looks up by WebFinger. */
const ACCT_RE = /^@?[a-z0-9_]+(?:[a-z0-9_.-]*[a-z0-9_])?@[^\s@/?#]+$/i;

/** A remote profile or post by URL, resolved (fetched and stored) when unknown, if the viewer may see it. */
async function remoteResource(
  ctx: AppContext,
  q: string,
  viewerId: string | undefined,
): Promise<{ kind: "accounts"; account: Account } | { kind: "statuses"; status: Status } | undefined> {
  let url: URL;
  try {
    url = new URL(q);
  } catch {
    return undefined;
  }
  const found = await resolveRemoteUrl(ctx, url);
  if (!found) return undefined;
  if ("account" in found) {
    const visible = (await ctx.repos.accounts.searchableIds([found.account.id])).has(found.account.id);
    return visible ? { kind: "accounts", account: found.account } : undefined;
  }
  const [visible] = await filterVisible(ctx, [found.status], viewerId);
  return visible && { kind: "statuses", status: visible };
}

/**
 * `GET /api/v2/search`, as Mastodon's SearchService: accounts, hashtags and (for a signed-in
 * caller only) statuses by full text, limited to what the caller may see. `offset` applies only
 * with a `type`. A URL of this server's status or account answers with that one record.
 */
export async function search(ctx: AppContext, q: string, opts: SearchOptions): Promise<SearchResults> {
  const results: SearchResults = { accounts: [], statuses: [], hashtags: [] };
  const query = q.trim().slice(0, MAX_QUERY_CHARS);
  if (query === "" || opts.limit <= 0) return results;
  const type = opts.type;
  const offset = type === undefined ? 0 : Math.min(opts.offset, MAX_OFFSET);
  const viewerId = opts.viewer?.id;
  const wants = (t: string) => type === undefined || type === t;

  if (/^https?:\/\//i.test(query)) {
    if (offset > 0) return results;
    const found =
      (await localResource(ctx, query, viewerId)) ??
      (opts.resolve ? await remoteResource(ctx, query, viewerId) : undefined);
    if (found?.kind === "accounts" && wants("accounts")) results.accounts = [found.account];
    if (found?.kind === "statuses" && wants("statuses")) results.statuses = [found.status];
    return results;
  }

  if (wants("accounts")) {
    results.accounts = await searchAccounts(ctx, query, {
      viewerId,
      following: opts.following,
      limit: opts.limit,
      offset,
    });
    // `user@domain` with `resolve`: the account, through WebFinger when unknown, comes first.
    if (opts.resolve && offset === 0 && ACCT_RE.test(query)) {
      const exact = await resolveAcct(ctx, query);
      if (exact && (await ctx.repos.accounts.searchableIds([exact.id])).has(exact.id)) {
        results.accounts = [exact, ...results.accounts.filter((a) => a.id !== exact.id)].slice(0, opts.limit);
      }
    }
  }
  if (wants("statuses") && viewerId !== undefined) {
    results.statuses = await searchStatuses(ctx, query, viewerId, { ...opts, offset });
  }
  if (wants("hashtags")) {
    results.hashtags = await searchTags(ctx, query, {
      excludeUnreviewed: opts.excludeUnreviewed,
      limit: opts.limit,
      offset,
    });
  }
  return results;
}

/**
 * Full-text status search: live posts (not boosts) the viewer may see (the SQL visibility rule,
 * then `filterVisible`), newest first; Mastodon's operators (`from:`, `has:`, ...) filter them,
 * `account_id` keeps one author's, `min_id`/`max_id` bound the ids.
 */
export async function searchStatuses(
  ctx: AppContext,
  q: string,
  viewerId: string,
  opts: Pick<SearchOptions, "accountId" | "minId" | "maxId" | "limit" | "offset">,
): Promise<Status[]> {
  if (opts.accountId !== undefined && !isId(opts.accountId)) return [];
  const { text, operators } = parseSearchInput(q);
  const statuses = await ctx.repos.search.statuses({
    match: { sqlite: toFts5(text), postgres: toTsQuery(text) },
    filters: await operatorFilters(ctx, operators, viewerId),
    reader: { accountId: viewerId },
    accountId: opts.accountId,
    minId: opts.minId,
    maxId: opts.maxId,
    limit: opts.limit,
    offset: Math.min(opts.offset, MAX_OFFSET),
  });
  return filterVisible(ctx, statuses, viewerId);
}
