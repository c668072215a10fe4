import type { AppContext } from "../../context.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { Bounded, type Kept, keptFor } from "../statuses/kept.ts";
import { DEFAULT_GROUPED_TYPES, type ExpandAccounts, groupedNotificationsJson } from "./groups.ts";
import { type NotificationFilter, notificationGroupsPage, notificationsPage } from "./inbox.ts";
import { notificationsBytes } from "./views.ts";

/**
 * Pages of notifications (v1 and the grouped v2) and conversations kept in memory, as made: the
 * rows' cursors (for the Link header) and the JSON bytes. A page is made by the usual path
 * (`notificationsBytes`, `groupedNotificationsJson`, `conversationsJson`), so its bytes are those;
 * asked again while nothing it shows changed, the same bytes are sent without a query.
 *
 * What it shows changes with a write to the notifications or conversations (the database's
 * notification stamp) or to the instance's domain policy (its stamp); with a change the log of
 * `render_changes` names (statuses/kept.ts: each status and account on the page, and the
 * viewer's relations, flags and filters; a suspension, emojis or roles drop all); and without a
 * write, when one of the viewer's mutes or filters runs out (read when the page is made). Where a
 * stamp is unknown (PostgreSQL with other processes), nothing is kept. Not kept: pages with a poll
 * (live tallies, `expired` turns with time), with a quote post (its JSON shows the reader's view
 * of another post, rendered apart on the home timeline too) and with a report, a moderation
 * warning or a severance event (made of other tables).
 */

/** A page as made: `count` rows, the first's and last's cursors, the body. */
export interface PageText {
  count: number;
  firstId: string | undefined;
  lastId: string | undefined;
  body: Buffer;
}

interface KeptText extends PageText {
  stamp: string;
  until: number;
  /** The change log's position when the page was made (`Kept.snapshot`). */
  snap: number;
  statusIds: string[];
  accountIds: string[];
}

/** Some 40-190 KB a page (120 KB for 40 notifications): 120 pages, about 15-20 MB at most. */
const KEPT_PAGES = 120;
const kept = new WeakMap<AppContext, Bounded<KeptText>>();

/** The stamps a kept page holds while they stay the same, or undefined (do not keep). */
function stampOf(ctx: AppContext): string | undefined {
  const d = ctx.database;
  const parts = [d.notificationChangeStamp(), d.domainPolicyStamp()];
  return parts.some((x) => x === undefined) ? undefined : parts.join(" ");
}

/** Types whose JSON is made of other tables than the stamps watch (reports, warnings, severances). */
const APART_TYPES = new Set(["admin.report", "moderation_warning", "severed_relationships"]);

/** The statuses and accounts a page's JSON shows, and whether one is a poll or a quote post. */
function shownIn(body: Buffer) {
  const statuses = new Set<string>();
  const accounts = new Set<string>();
  let apart = false;
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.id === "string" && "acct" in o) accounts.add(o.id);
    if (typeof o.id === "string" && "content" in o && "uri" in o) {
      statuses.add(o.id);
      if ((o.poll ?? null) !== null || (o.quote ?? null) !== null) apart = true;
    }
    for (const k in o) walk(o[k]);
  };
  walk(JSON.parse(body.toString("utf8")));
  return { statusIds: [...statuses], accountIds: [...accounts], apart };
}

/** Whether nothing the change log named since the page was made is on it (or the viewer's). */
function unchanged(k: Kept, page: KeptText, viewerId: string): boolean {
  if (!k.mayKeep(page.snap, "r", viewerId) || !k.mayKeep(page.snap, "v", viewerId)) return false;
  if (!k.mayKeep(page.snap, "f", viewerId)) return false;
  for (const id of page.statusIds) if (!k.mayKeep(page.snap, "s", id)) return false;
  for (const id of page.accountIds) if (!k.mayKeep(page.snap, "a", id)) return false;
  return true;
}

/**
 * The page of `key` for `viewerId`: kept, or made by `make` (which says whether it may be kept)
 * and kept while the stamps hold, the change log names nothing on it and none of the viewer's
 * mutes and filters runs out.
 */
export async function keptPageText(
  ctx: AppContext,
  key: string,
  viewerId: string,
  make: () => Promise<PageText & { keepable: boolean }>,
): Promise<PageText> {
  const stamp = stampOf(ctx);
  if (stamp === undefined) return make();
  const k = await keptFor(ctx);
  let pages = kept.get(ctx);
  if (pages === undefined) {
    pages = new Bounded(KEPT_PAGES);
    kept.set(ctx, pages);
  }
  const hit = pages.get(key);
  if (hit !== undefined && hit.stamp === stamp && Date.now() < hit.until && unchanged(k, hit, viewerId)) return hit;
  const snap = k.snapshot();
  const [made, until] = await Promise.all([
    make(),
    ctx.repos.notifications.nextExpiry(viewerId, new Date().toISOString()),
  ]);
  const shown = made.keepable ? shownIn(made.body) : undefined;
  if (shown !== undefined && !shown.apart) {
    pages.set(key, {
      stamp,
      until,
      snap,
      statusIds: shown.statusIds,
      accountIds: shown.accountIds,
      count: made.count,
      firstId: made.firstId,
      lastId: made.lastId,
      body: made.body,
    });
  } else pages.delete(key);
  return made;
}

const windowKey = (w: IdWindow) => `${w.maxId ?? ""} ${w.sinceId ?? ""} ${w.minId ?? ""} ${w.limit}`;

/** `GET /api/v1/notifications`: the page's rows (for the Link header) and its JSON, kept while unchanged. */
export function notificationsText(
  ctx: AppContext,
  viewerId: string,
  filter: NotificationFilter,
  window: IdWindow,
): Promise<PageText> {
  const key = `n1 ${viewerId} ${windowKey(window)} ${JSON.stringify(filter)}`;
  return keptPageText(ctx, key, viewerId, async () => {
    const rows = await notificationsPage(ctx, viewerId, filter, window);
    return {
      count: rows.length,
      firstId: rows[0]?.id,
      lastId: rows.at(-1)?.id,
      body: await notificationsBytes(ctx, rows, viewerId),
      keepable: !rows.some((n) => APART_TYPES.has(n.type)),
    };
  });
}

/**
 * `GET /api/v2/notifications`: the page's groups (their latest notifications, for the Link
 * header) and the GroupedNotificationsResults JSON, kept while unchanged.
 */
export function groupedNotificationsText(
  ctx: AppContext,
  viewerId: string,
  filter: NotificationFilter,
  window: IdWindow,
  groupedTypes: readonly string[],
  expandAccounts: ExpandAccounts,
): Promise<PageText> {
  const types = groupedTypes === DEFAULT_GROUPED_TYPES ? "" : JSON.stringify(groupedTypes);
  const key = `n2 ${viewerId} ${windowKey(window)} ${expandAccounts} ${types} ${JSON.stringify(filter)}`;
  return keptPageText(ctx, key, viewerId, async () => {
    const rows = await notificationGroupsPage(ctx, viewerId, filter, window, groupedTypes);
    const json = await groupedNotificationsJson(ctx, rows, viewerId, { groupedTypes, expandAccounts, paginated: true });
    return {
      count: rows.length,
      firstId: rows[0]?.id,
      lastId: rows.at(-1)?.id,
      body: Buffer.from(JSON.stringify(json)),
      keepable: !rows.some((n) => APART_TYPES.has(n.type)),
    };
  });
}
