import type { AppContext } from "../../context.ts";
import type { AccountSeveranceEvent } from "../../db/repositories/severed-relationships.ts";
import { notFound } from "../../lib/errors.ts";
import { notificationCreated } from "../push/deliver.ts";
import { publishNotification } from "../streaming/publish.ts";

export const SEVERED_NOTIFY_JOB = "moderation.severed-relationships-notify";
const NOTIFY_BATCH = 100;

/** Mastodon's RelationshipSeveranceEvent entity, as one local account lost its follows. */
export function severanceEventJson(e: AccountSeveranceEvent): Record<string, unknown> {
  return {
    id: e.id,
    type: e.type,
    purged: e.purged,
    target_name: e.targetName,
    followers_count: e.followersCount,
    following_count: e.followingCount,
    created_at: e.createdAt,
  };
}

/** The events of `severed_relationships` notifications, by account event id. */
export async function severanceEventsJsonById(
  ctx: AppContext,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const events = await ctx.repos.severedRelationships.accountEventsByIds([...new Set(ids)]);
  return new Map(events.map((e) => [e.id, severanceEventJson(e)]));
}

/**
 * The `moderation.severed-relationships-notify` job: each local account that lost follows in
 * the event gets a `severed_relationships` notification (from itself, as Mastodon's), a batch at
 * a time. Its account event is its cause, so a job that runs twice notifies once.
 */
export async function notifySeveredRelationships(
  ctx: AppContext,
  payload: { eventId: string; after?: string },
): Promise<void> {
  if (typeof payload?.eventId !== "string") return;
  const batch = await ctx.repos.severedRelationships.accountEventsOf(
    payload.eventId,
    payload.after ?? "0",
    NOTIFY_BATCH,
  );
  for (const e of batch) {
    const now = new Date();
    const id = ctx.ids.next(now);
    const stored = await ctx.repos.notifications.insert({
      id,
      account_id: e.accountId,
      from_account_id: e.accountId,
      type: "severed_relationships",
      status_id: null,
      activity_id: e.id,
      group_key: `ungrouped-${id}`,
      created_at: now.toISOString(),
    });
    if (!stored) continue;
    await notificationCreated(ctx, {
      id,
      accountId: e.accountId,
      fromAccountId: e.accountId,
      type: "severed_relationships",
    });
    await publishNotification(ctx, e.accountId, id);
  }
  const last = batch.at(-1);
  if (batch.length === NOTIFY_BATCH && last) {
    await ctx.queue.enqueue(SEVERED_NOTIFY_JOB, { eventId: payload.eventId, after: last.id });
  }
}

/** One CSV field, quoted when it must be (RFC 4180, as Ruby's CSV writes). */
function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

const csvLine = (fields: string[]) => `${fields.map(csvField).join(",")}\n`;

/**
 * `/severed_relationships/:id/following.csv` and `followers.csv`: the follows `accountId` lost
 * in its event `id`, with Mastodon's columns (an import file for the follows). 404 when the
 * event is not the account's.
 */
export async function severedRelationshipsCsv(
  ctx: AppContext,
  accountId: string,
  id: string,
  which: "following" | "followers",
): Promise<{ filename: string; body: string }> {
  const [event] = /^\d{1,19}$/.test(id) ? await ctx.repos.severedRelationships.accountEventsByIds([id]) : [];
  if (!event || event.accountId !== accountId) throw notFound();
  const rows = await ctx.repos.severedRelationships.severedOf(
    event.eventId,
    accountId,
    which === "following" ? "active" : "passive",
  );
  let body: string;
  if (which === "following") {
    body = csvLine(["Account address", "Show boosts", "Notify on new posts", "Languages"]);
    for (const r of rows) {
      body += csvLine([r.remoteAcct, String(r.showReblogs), String(r.notify), r.languages?.join(", ") ?? ""]);
    }
  } else {
    body = csvLine(["Account address"]);
    for (const r of rows) body += csvLine([r.remoteAcct]);
  }
  const day = event.createdAt.slice(0, 10);
  return { filename: `${which}-${event.targetName}-${day}.csv`, body };
}
