import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { MediaAttachment } from "../../db/repositories/media.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { FeedTag } from "../../db/repositories/web-feeds.ts";
import { isAccountDeleted, isAccountPublic } from "../../policies/accounts.ts";
import { keptFor, type StatusEntry } from "../statuses/kept.ts";
import { accountEntries, statusEntries } from "../statuses/rendered.ts";

/** Items of a feed by default and at most (Mastodon's PAGE_SIZE and PAGE_SIZE_MAX). */
export const FEED_ITEMS = 20;
export const FEED_ITEMS_MAX = 200;

/**
 * One post of a feed with what its item shows besides the post: attachments, hashtags and poll
 * options. Made once per kept render of the post (statuses/kept.ts) and the same object while
 * that render is kept: any change to the post, its media or its tags drops the render, and the
 * next feed makes a new one. So a renderer may keep its output by this object.
 */
export interface FeedItem {
  status: Status;
  media: MediaAttachment[];
  tags: { name: string; displayName: string }[];
  pollOptions: string[] | null;
}

const items = new WeakMap<StatusEntry, FeedItem>();

/** The number of items asked for (`limit`), within bounds. */
export function feedLimit(asked: string | undefined): number {
  const n = asked === undefined ? Number.NaN : Number.parseInt(asked, 10);
  if (!Number.isFinite(n) || n <= 0) return FEED_ITEMS;
  return Math.min(n, FEED_ITEMS_MAX);
}

/** The feed items of `ids` (in that order) anyone may see: live public posts by searchable authors. */
async function feedItems(ctx: AppContext, ids: readonly string[], authorChecked: boolean): Promise<FeedItem[]> {
  if (ids.length === 0) return [];
  const k = await keptFor(ctx);
  const snap = k.snapshot();
  const entries = await statusEntries(ctx, k, snap, ids);
  let searchable: (id: string) => boolean = () => true;
  if (!authorChecked) {
    const authorIds = [...new Set([...entries.values()].map((e) => e.status.accountId))];
    const accounts = await accountEntries(ctx, k, snap, authorIds);
    searchable = (id) => accounts.get(id)?.searchable === true;
  }
  const shown: StatusEntry[] = [];
  for (const id of ids) {
    const e = entries.get(id);
    if (!e) continue;
    const s = e.status;
    if (s.deletedAt !== null || s.visibility !== "public" || s.reblogOfId !== null || !searchable(s.accountId))
      continue;
    shown.push(e);
  }
  const missing = shown.filter((e) => !items.has(e));
  if (missing.length > 0) {
    const missingIds = missing.map((e) => e.status.id);
    const pollIds = missing.flatMap((e) => (e.status.pollId === null ? [] : [e.status.pollId]));
    const [media, tags, polls] = await Promise.all([
      ctx.repos.media.listByStatuses(missingIds),
      ctx.repos.statuses.tagsOf(missingIds),
      pollIds.length > 0 ? ctx.repos.polls.getByIds(pollIds) : [],
    ]);
    const options = new Map(polls.map((p) => [p.id, p.options]));
    for (const e of missing) {
      const s = e.status;
      items.set(e, {
        status: s,
        media: media.filter((m) => m.statusId === s.id),
        tags: tags.get(s.id) ?? [],
        pollOptions: s.pollId === null ? null : (options.get(s.pollId) ?? null),
      });
    }
  }
  return shown.flatMap((e) => items.get(e) ?? []);
}

/** A local account the public may see (confirmed, approved, neither suspended nor deleted), by username. */
export async function publicFeedAccount(ctx: AppContext, username: string): Promise<Account | undefined> {
  const account = await ctx.repos.accounts.getByUsername(username, null);
  if (!account || account.domain !== null || account.suspendedAt !== null || isAccountDeleted(account))
    return undefined;
  return isAccountPublic(account, await ctx.repos.users.getByAccountId(account.id)) ? account : undefined;
}

/**
 * `/@user.rss`: a local account's latest public posts, without boosts and replies to others
 * (Mastodon's account feed; Gannet leaves unlisted posts out, as its profile page does), only
 * those with the hashtag `tag` when given. Undefined when the account is not public; a tag that
 * is unknown (or may not be used) gives an empty feed.
 */
export async function accountFeed(
  ctx: AppContext,
  username: string,
  opts: { tag?: string; limit: number },
): Promise<{ account: Account; tag: FeedTag | undefined; items: FeedItem[] } | undefined> {
  const account = await publicFeedAccount(ctx, username);
  if (!account) return undefined;
  let tag: FeedTag | undefined;
  if (opts.tag !== undefined && opts.tag !== "") {
    tag = await ctx.repos.webFeeds.tagByName(opts.tag.replace(/^#/, ""));
    if (!tag?.usable) return { account, tag: undefined, items: [] };
  }
  const ids = await ctx.repos.webFeeds.publicAccountStatusIds(account.id, { tagId: tag?.id }, opts.limit);
  return { account, tag, items: await feedItems(ctx, ids, true) };
}

/**
 * `/tags/:name.rss`: the latest public posts with the hashtag, local and remote (`local`: local
 * only), as an anonymous reader of the hashtag timeline gets them (never unlisted, private or
 * direct; not by suspended or silenced accounts). Undefined for an unknown tag or one moderators
 * made unusable.
 */
export async function tagFeed(
  ctx: AppContext,
  name: string,
  opts: { local: boolean; limit: number },
): Promise<{ tag: FeedTag; items: FeedItem[] } | undefined> {
  const tag = await ctx.repos.webFeeds.tagByName(name.trim().replace(/^#/, ""));
  if (!tag?.usable) return undefined;
  const ids = await ctx.repos.webFeeds.publicTagStatusIds(tag.id, { local: opts.local }, opts.limit);
  return { tag, items: await feedItems(ctx, ids, false) };
}
