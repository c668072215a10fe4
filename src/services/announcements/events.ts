import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { serializeReaction } from "../../serializers/announcement.ts";
import { announcementsJson } from "./views.ts";

const logger = getLogger(["gannet", "announcements"]);

/**
 * The bus channel of announcement events. One channel for everyone (every `user` stream
 * listens to it) where Mastodon publishes on each active account's own: the events are the same
 * for all (rendered with no viewer, as Mastodon renders them), so one message serves every
 * streaming client.
 */
export const ANNOUNCEMENTS_CHANNEL = "announcements";

export const ANNOUNCEMENT_PUBLISH_JOB = "announcements.publish";
export const ANNOUNCEMENT_UNPUBLISH_JOB = "announcements.unpublish";

/**
 * Job: sends a published announcement to streaming clients (`announcement`). A job rather than
 * a direct publish because announcements are made by the `gannet` command, whose process has no
 * streaming clients and, with SQLite, no bus reaching the server's.
 */
export async function publishAnnouncementJob(ctx: AppContext, payload: unknown): Promise<void> {
  const id = (payload as { id?: unknown } | null)?.id;
  if (typeof id !== "string") return;
  const a = await ctx.repos.announcements.get(id);
  if (!a?.published) return;
  const [json] = await announcementsJson(ctx, [a], null);
  await ctx.bus.publish(ANNOUNCEMENTS_CHANNEL, "announcement", json);
}

/** Job: tells streaming clients an announcement is gone (`announcement.delete`, the bare id). */
export async function unpublishAnnouncementJob(ctx: AppContext, payload: unknown): Promise<void> {
  const id = (payload as { id?: unknown } | null)?.id;
  if (typeof id !== "string") return;
  await ctx.bus.publish(ANNOUNCEMENTS_CHANNEL, "announcement.delete", id);
}

/**
 * Sends a reaction's new count (`announcement.reaction`: name, count, announcement id, and the
 * image for a custom emoji) after the change committed. A lost event must not fail the request
 * that made the change, which is already done.
 */
export async function publishReaction(ctx: AppContext, announcementId: string, name: string): Promise<void> {
  try {
    const all = await ctx.repos.announcements.reactions([announcementId], null);
    const r = all.find((x) => x.name === name);
    const emoji =
      r?.customEmojiId != null
        ? (await ctx.repos.customEmojis.findEnabled([{ domain: null, shortcodes: [name] }]))[0]
        : undefined;
    const json = serializeReaction({ name, count: r?.count ?? 0, me: false }, emoji, false, (k) => ctx.blobs.url(k));
    await ctx.bus.publish(ANNOUNCEMENTS_CHANNEL, "announcement.reaction", { ...json, announcement_id: announcementId });
  } catch (e) {
    logger.warn("Could not send a reaction of announcement {id}: {error}", { id: announcementId, error: e });
  }
}
