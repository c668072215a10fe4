import type { AppContext } from "../../context.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { idRows, keptIdPage, windowKey } from "../feeds/id-pages.ts";
import { keptStatusesText } from "../statuses/rendered.ts";
import { getOwnedList, LIST_FEED_CAP } from "./lists.ts";

/**
 * The list part of the `feeds.fan-out` job: a new status goes into the timelines of the lists
 * holding its author that should show it (`ListsRepository.fanOut`), those are trimmed, and it
 * leaves the home feeds of owners who keep its author in an exclusive list. Idempotent. Nothing
 * to do when no list holds its author (or booster), `authorId`.
 */
export async function fanOutToLists(ctx: AppContext, statusId: string, authorId: string): Promise<void> {
  if (!(await ctx.repos.lists.isListed(authorId))) return;
  await ctx.repos.lists.fanOut(statusId);
  await ctx.repos.lists.trimFeedsOf(statusId, LIST_FEED_CAP);
  await ctx.repos.lists.removeFromExclusiveHomes(statusId);
}

/**
 * `GET /api/v1/timelines/list/:list_id`: the owner's materialised list timeline as JSON (the
 * `home` filters apply, as in Mastodon), each entry checked again against the visibility rules
 * (follows and deletions change after fan-out), rendered from kept parts (statuses/rendered.ts).
 * `rows` are the entries the page window found.
 */
export async function listTimelineText(
  ctx: AppContext,
  ownerId: string,
  listId: string,
  window: IdWindow,
): Promise<{ rows: readonly { id: string }[]; body: Buffer }> {
  // The list feed's ids, read again only when a feed may have changed (as the home timeline's),
  // with the check that the list is the owner's: a list stops being theirs only when it or its
  // owner is deleted, and both delete from tables of that stamp (list_feeds, accounts), so a
  // kept page is never served for a list that is gone. A list not theirs throws: nothing kept.
  const key = `list ${ownerId} ${listId} ${windowKey(window)}`;
  const ids = await keptIdPage(ctx, ctx.database.feedChangeStamp(), key, async () => {
    const list = await getOwnedList(ctx, ownerId, listId);
    return ctx.repos.lists.page(list.id, window);
  });
  return {
    rows: idRows(ids),
    body: await keptStatusesText(ctx, ids, ownerId, "home", { pageKey: key }),
  };
}
