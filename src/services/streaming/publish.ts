import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { DB } from "../../db/schema.ts";
import { isSilenced, isUnavailable } from "../../policies/moderation.ts";
import {
  directChannel,
  hashtagChannel,
  listChannel,
  notificationsChannel,
  publicChannel,
  publishAll,
  userChannel,
} from "./channels.ts";

/**
 * What services publish for the streaming API (channels.ts names the channels), always after the
 * writing transaction committed. Only ids travel; each streaming process renders them per
 * subscriber, so nothing here depends on who listens.
 */

/**
 * What the caller knows of a new status's hashtags and media, having stored them a moment ago (the
 * inbox's `persistNote`), so that they are not read again.
 */
export interface StatusParts {
  /** Lower-cased names of its hashtags, each once. */
  tagNames: readonly string[];
  hasMedia: boolean;
}

/**
 * The public and hashtag channels of a status (Mastodon's broadcastable: public, not a boost).
 * Replies to others stay off the public streams (as off the public timeline) but reach hashtags.
 * `parts`: its hashtags and media when the caller knows them, else read here.
 */
async function broadcastChannels(
  ctx: AppContext,
  status: Status,
  db?: Kysely<DB>,
  parts?: StatusParts,
): Promise<string[]> {
  if (status.visibility !== "public" || status.reblogOfId !== null) return [];
  const out: string[] = [];
  for (const tag of parts?.tagNames ?? (await ctx.repos.streaming.tagNames(status.id, db))) {
    out.push(hashtagChannel(tag, false));
    if (status.local) out.push(hashtagChannel(tag, true));
  }
  const replyToOther = status.inReplyToId !== null && status.inReplyToAccountId !== status.accountId;
  if (!replyToOther) {
    const where = status.local ? "local" : "remote";
    out.push(publicChannel("all", false), publicChannel(where, false));
    if (parts?.hasMedia ?? (await ctx.repos.streaming.hasMedia(status.id, db)))
      out.push(publicChannel("all", true), publicChannel(where, true));
  }
  return out;
}

/**
 * Whether the author's new and edited posts go to the public and hashtag streams: not when it is
 * suspended or silenced (Mastodon's FanOutOnWriteService `broadcastable?`; as off the public
 * timelines, policies/moderation.ts). `known`: the author's row when the caller has it in hand.
 */
async function broadcastAuthor(ctx: AppContext, status: Status, known?: Account): Promise<boolean> {
  if (status.visibility !== "public" || status.reblogOfId !== null) return false;
  const author = known?.id === status.accountId ? known : await ctx.repos.accounts.getById(status.accountId);
  return author !== undefined && !isUnavailable(author) && !isSilenced(author);
}

/** What the fan-out knows already of the feeds holding a status, so that it is not read again. */
export interface FeedsHolding {
  /** The accounts whose home feed holds it. */
  homes?: readonly string[];
  /** The lists whose timeline holds it. */
  lists?: readonly string[];
}

/** The home and list channels of the feeds holding the status (`known`: those read already). */
async function feedChannels(
  ctx: AppContext,
  statusId: string,
  db?: Kysely<DB>,
  known: FeedsHolding = {},
): Promise<string[]> {
  const [homes, lists] = await Promise.all([
    known.homes ?? ctx.repos.streaming.homesHolding(statusId, db),
    known.lists ?? ctx.repos.streaming.listsHolding(statusId, db),
  ]);
  return [...homes.map(userChannel), ...lists.map(listChannel)];
}

const liveStatus = async (ctx: AppContext, statusId: string) => {
  const s = await ctx.repos.statuses.getById(statusId);
  return s && s.deletedAt === null ? s : undefined;
};

/**
 * A new status on the public and hashtag streams (the fan-out, before it writes any feed), given
 * as the fan-out read it: live. `author` (its author's row) and `parts` (its hashtags and media):
 * when the caller has them (the inbox's `persistNote`, for the activity it stored), else read here.
 */
export async function publishBroadcast(
  ctx: AppContext,
  status: Status,
  author?: Account,
  parts?: StatusParts,
): Promise<void> {
  if (!(await broadcastAuthor(ctx, status, author))) return;
  await publishAll(ctx, await broadcastChannels(ctx, status, undefined, parts), "update", { id: status.id });
}

/**
 * A new status on the home and list streams of the feeds it went into (the fan-out, once they
 * are written). `status`: the status as the fan-out read it (live), or its id, read here; `known`:
 * the homes and lists holding it when the fan-out has them in hand, else read here.
 */
export async function publishToFeeds(
  ctx: AppContext,
  status: Status | string,
  known: FeedsHolding = {},
): Promise<void> {
  const live = typeof status === "string" ? await liveStatus(ctx, status) : status;
  if (!live || live.deletedAt !== null) return;
  await publishAll(ctx, await feedChannels(ctx, live.id, undefined, known), "update", { id: live.id });
}

/** An edited status, wherever a new one would have gone (`status.update`). */
export async function publishStatusUpdate(ctx: AppContext, statusId: string): Promise<void> {
  const status = await liveStatus(ctx, statusId);
  if (!status) return;
  const broadcast = (await broadcastAuthor(ctx, status)) ? await broadcastChannels(ctx, status) : [];
  const channels = [...(await feedChannels(ctx, statusId)), ...broadcast];
  await publishAll(ctx, new Set(channels), "status.update", { id: statusId });
}

/**
 * Where the `delete` of each status must go, read in the deleting transaction before the feeds
 * forget it: the homes and lists holding it, its author's and mentioned accounts' homes, the
 * public and hashtag streams, and the participants' direct streams.
 */
export async function deletionChannels(
  ctx: AppContext,
  statuses: readonly Status[],
  db: Kysely<DB>,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const mentions = await ctx.repos.streaming.mentioned(
    statuses.map((s) => s.id),
    db,
  );
  for (const s of statuses) {
    const mentioned = mentions.get(s.id) ?? [];
    const channels = new Set([
      ...(await feedChannels(ctx, s.id, db)),
      userChannel(s.accountId),
      ...mentioned.map(userChannel),
      ...(await broadcastChannels(ctx, s, db)),
    ]);
    if (s.visibility === "direct") for (const id of [s.accountId, ...mentioned]) channels.add(directChannel(id));
    out.set(s.id, [...channels]);
  }
  return out;
}

/** Publishes the deletes `deletionChannels` found, once the delete committed. */
export async function publishDeletes(ctx: AppContext, channels: ReadonlyMap<string, readonly string[]>) {
  for (const [statusId, list] of channels) await publishAll(ctx, list, "delete", statusId);
}

/** A new notification (not a filtered one: those wait in their request). */
export async function publishNotification(ctx: AppContext, accountId: string, notificationId: string) {
  await publishAll(ctx, [notificationsChannel(accountId)], "notification", { id: notificationId });
}

/** A conversation that got a new status. */
export async function publishConversation(ctx: AppContext, accountId: string, conversationId: string) {
  await publishAll(ctx, [directChannel(accountId)], "conversation", { id: conversationId });
}

/** Accepted notification requests have joined the list (Mastodon 4.3: clients fetch again). */
export async function publishNotificationsMerged(ctx: AppContext, accountId: string) {
  await publishAll(ctx, [userChannel(accountId)], "notifications_merged", null);
}
