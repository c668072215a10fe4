import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import { isAccountDeleted, isAccountPublic } from "../../policies/accounts.ts";
import { canSeeStatus } from "../../policies/statuses.ts";
import { accountJson } from "../accounts/views.ts";
import { tagTimeline } from "../feeds/timelines.ts";
import { loadSiteInfo } from "../instance/site-settings.ts";
import { accountStatusesPage } from "../statuses/pages.ts";
import { statusContext } from "../statuses/thread.ts";
import { isVisible } from "../statuses/views.ts";
import { statusesText } from "../statuses/views-text.ts";
import type { WebAccount, WebStatus } from "./entities.ts";

/**
 * What the public pages show (src/http/web/profiles/): always as to an anonymous reader, whoever
 * is signed in, through the services the API uses for a caller without a token (account statuses,
 * status context, the hashtag timeline) and rendered from the same JSON.
 */

/** Posts per page on profiles and hashtag pages. */
export const PAGE_SIZE = 20;

/** A local account anyone may see (confirmed, approved, not suspended or deleted). */
export async function publicLocalAccount(ctx: AppContext, username: string): Promise<Account | undefined> {
  const found = await findProfileAccount(ctx, username);
  return found.state === "ok" ? found.account : undefined;
}

/**
 * A local account by username, for its public pages: `missing` when unknown, unconfirmed or not
 * approved (as the API's 404), `deleted` when its owner deleted it, `suspended` when a moderator
 * suspended it (both answered 410).
 */
export async function findProfileAccount(
  ctx: AppContext,
  username: string,
): Promise<{ state: "ok"; account: Account } | { state: "missing" | "deleted" | "suspended" }> {
  const account = await ctx.repos.accounts.getByUsername(username, null);
  if (!account) return { state: "missing" };
  // Before the user check: a deleted account has no user left, and is still a 410.
  if (isAccountDeleted(account)) return { state: "deleted" };
  if (!isAccountPublic(account, await ctx.repos.users.getByAccountId(account.id))) return { state: "missing" };
  if (account.suspendedAt !== null) return { state: "suspended" };
  return { state: "ok", account };
}

/** The statuses' JSON as the API gives it to an anonymous caller (the caller checked visibility). */
async function statusViews(ctx: AppContext, statuses: readonly Status[]): Promise<WebStatus[]> {
  if (statuses.length === 0) return [];
  return JSON.parse((await statusesText(ctx, statuses, undefined)).toString("utf8")) as WebStatus[];
}

/** Links to the next pages: `older` is a `max_id`, `newer` a `min_id`. */
export interface PageLinks {
  older?: string;
  newer?: string;
}

function pageLinks(rows: readonly { id: string }[], window: IdWindow): PageLinks {
  const paged = window.maxId !== undefined || window.minId !== undefined;
  return {
    // A page read towards newer posts (`min_id`) always has older ones behind it.
    older: rows.length >= window.limit || (window.minId !== undefined && rows.length > 0) ? rows.at(-1)?.id : undefined,
    newer: paged && rows.length > 0 ? rows[0].id : undefined,
  };
}

export type ProfileTab = "posts" | "with_replies" | "media";

export interface ProfileView {
  account: WebAccount;
  /** Pinned posts (the posts tab's first page only). */
  pinned: WebStatus[];
  statuses: WebStatus[];
  links: PageLinks;
  siteTitle: string;
}

/**
 * One page of a profile tab: posts and boosts without replies to others (with the pinned posts
 * first on the first page), posts with replies, or posts with media, as the API's account
 * statuses give them to an anonymous caller (public and unlisted posts).
 */
export async function profileView(
  ctx: AppContext,
  account: Account,
  tab: ProfileTab,
  window: IdWindow,
): Promise<ProfileView> {
  const first = window.maxId === undefined && window.minId === undefined;
  const opts = {
    pinned: false,
    excludeReplies: tab === "posts",
    excludeReblogs: tab === "media",
    onlyMedia: tab === "media",
  };
  const [page, pinned, json, site] = await Promise.all([
    accountStatusesPage(ctx, account, undefined, opts, window),
    tab === "posts" && first
      ? accountStatusesPage(ctx, account, undefined, { ...opts, pinned: true }, window)
      : { rows: [], statuses: [] },
    accountJson(ctx, account),
    loadSiteInfo(ctx),
  ]);
  const views = await statusViews(ctx, [...pinned.statuses, ...page.statuses]);
  return {
    account: json as unknown as WebAccount,
    pinned: views.slice(0, pinned.statuses.length),
    statuses: views.slice(pinned.statuses.length),
    links: pageLinks(page.rows, window),
    siteTitle: site.title,
  };
}

export interface StatusPageView {
  status: WebStatus;
  ancestors: WebStatus[];
  descendants: WebStatus[];
  siteTitle: string;
}

type Lookup<T> = { state: "ok"; view: T } | { state: "missing" | "deleted" | "suspended" | "gone" };

/** The status `id` of the local account `username`, if anyone may read it. */
async function readableStatus(
  ctx: AppContext,
  username: string,
  id: string,
): Promise<{ state: "ok"; status: Status } | { state: "missing" | "deleted" | "suspended" | "gone" }> {
  const found = await findProfileAccount(ctx, username);
  if (found.state !== "ok") return found;
  if (!isId(id)) return { state: "missing" };
  const status = await ctx.repos.statuses.getById(id);
  if (!status || status.accountId !== found.account.id || status.reblogOfId !== null) return { state: "missing" };
  if (status.deletedAt !== null) return { state: "gone" };
  if (!(await isVisible(ctx, status, undefined))) return { state: "missing" };
  return { state: "ok", status };
}

/**
 * A post's page: the post with its thread as the API's context gives it to an anonymous caller
 * (public and unlisted posts only, within Mastodon's anonymous limits). `gone` for a deleted
 * post; followers-only and direct posts are `missing`.
 */
export async function statusPageView(ctx: AppContext, username: string, id: string): Promise<Lookup<StatusPageView>> {
  const found = await readableStatus(ctx, username, id);
  if (found.state !== "ok") return found;
  const [{ ancestors, descendants }, site] = await Promise.all([
    statusContext(ctx, found.status, undefined),
    loadSiteInfo(ctx),
  ]);
  const views = await statusViews(ctx, [...ancestors, found.status, ...descendants]);
  return {
    state: "ok",
    view: {
      ancestors: views.slice(0, ancestors.length),
      status: views[ancestors.length],
      descendants: views.slice(ancestors.length + 1),
      siteTitle: site.title,
    },
  };
}

/**
 * One post for embedding on other sites: as Mastodon's embeds, a post anyone may read (public or
 * unlisted); others are `missing`.
 */
export async function embedView(ctx: AppContext, username: string, id: string): Promise<Lookup<WebStatus>> {
  const found = await readableStatus(ctx, username, id);
  if (found.state !== "ok") return found;
  const [view] = await statusViews(ctx, [found.status]);
  return { state: "ok", view };
}

export interface TagPageView {
  /** The tag's stored name, lower-cased. */
  name: string;
  statuses: WebStatus[];
  links: PageLinks;
  siteTitle: string;
}

/**
 * A hashtag's page: its public posts, local and remote, as the API's hashtag timeline gives them
 * to an anonymous caller (never unlisted, followers-only or direct posts; no silenced authors).
 * Every public timeline is open to anyone here (the instance's `timelines_access` says so), so
 * no access setting applies. Undefined for a tag never used here.
 */
export async function tagPageView(ctx: AppContext, tag: string, window: IdWindow): Promise<TagPageView | undefined> {
  const name = normalizeHashtag(tag);
  if (name === "") return undefined;
  const ids = await ctx.repos.statusPages.tagIdsByName([name]);
  if (!ids.has(name)) return undefined;
  const opts = { local: false, remote: false, onlyMedia: false };
  const none = { any: [], all: [], none: [] };
  const [page, site] = await Promise.all([tagTimeline(ctx, undefined, name, none, opts, window), loadSiteInfo(ctx)]);
  // The timeline reads public posts only; checked again here so that nothing else can ever show.
  const shown = page.visible.filter((s) => s.visibility === "public");
  return { name, statuses: await statusViews(ctx, shown), links: pageLinks(page.rows, window), siteTitle: site.title };
}

/**
 * What a profile page showed before the public site (kept for callers): the account and its
 * latest public posts, no replies, no boosts.
 */
export async function profilePage(
  ctx: AppContext,
  username: string,
): Promise<{ account: Account; statuses: Status[] } | undefined> {
  const account = await publicLocalAccount(ctx, username);
  if (!account) return undefined;
  const page = await accountStatusesPage(
    ctx,
    account,
    undefined,
    { pinned: false, excludeReplies: true, excludeReblogs: true, onlyMedia: false },
    { limit: PAGE_SIZE },
  );
  return { account, statuses: page.statuses.filter((s) => s.visibility === "public") };
}

/** One post anyone may read, of a visible local account (kept for callers); `gone` when deleted. */
export async function statusPage(
  ctx: AppContext,
  username: string,
  id: string,
): Promise<{ account: Account; status: Status } | "gone" | undefined> {
  const account = await publicLocalAccount(ctx, username);
  if (!account) return undefined;
  const status = isId(id) ? await ctx.repos.statuses.getById(id) : undefined;
  if (!status || status.accountId !== account.id || status.reblogOfId !== null) return undefined;
  if (status.deletedAt !== null) return "gone";
  if (!canSeeStatus(status, { followsAuthor: false, mentioned: false })) return undefined;
  return { account, status };
}

/**
 * Where `/@user@domain` sends a browser: a known remote account's page at its origin (pages of
 * remote accounts are not made here). Undefined when unknown or suspended.
 */
export async function remoteProfileUrl(ctx: AppContext, username: string, domain: string): Promise<string | undefined> {
  const account = await ctx.repos.accounts.getByUsername(username, domain);
  if (!account || account.domain === null || account.suspendedAt !== null) return undefined;
  return account.url ?? account.uri;
}
