import type { AppContext } from "../../context.ts";
import type { MediaAttachment } from "../../db/repositories/media.ts";
import { ApiError } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { STATUS_LIMITS } from "../../lib/limits.ts";
import { destroyMediaAttachment } from "./media-attachments.ts";

/**
 * The uploads a new status (or an edit) may carry, checked as Mastodon's PostStatusService does:
 * at most 4, only the author's own unattached uploads (other ids are skipped silently), no
 * video or audio beside other media, all processed. Answers them in the order given.
 * `statusId` lets an edit keep the media already attached to that status.
 */
export async function prepareStatusMedia(
  ctx: AppContext,
  accountId: string,
  mediaIds: readonly string[],
  statusId?: string,
): Promise<MediaAttachment[]> {
  if (mediaIds.length === 0) return [];
  if (mediaIds.length > STATUS_LIMITS.maxMediaAttachments) {
    throw new ApiError(422, `Cannot attach more than ${STATUS_LIMITS.maxMediaAttachments} files`);
  }
  const ids = [...new Set(mediaIds.filter(isId))];
  const owned = await ctx.repos.media.listOwned(ids, accountId);
  const byId = new Map(
    owned.filter((m) => m.statusId === null || m.statusId === statusId).map((m) => [m.id, m] as const),
  );
  const media = ids.flatMap((id) => byId.get(id) ?? []);
  if (media.length > 1 && media.some((m) => m.type === "video" || m.type === "audio")) {
    throw new ApiError(422, "Cannot attach a video to a post that already contains images");
  }
  if (media.some((m) => m.processing !== "complete")) {
    throw new ApiError(422, "Cannot attach files that have not finished processing. Try again in a moment!");
  }
  return media;
}

/**
 * Deletes the media of deleted statuses, rows and files (a delete-and-redraft detaches them with
 * `repos.media.detachFromStatus` instead, so the new draft can reuse them).
 */
export async function removeStatusMedia(ctx: AppContext, statusIds: readonly string[]): Promise<number> {
  const media = await ctx.repos.media.listByStatuses(statusIds);
  for (const m of media) await destroyMediaAttachment(ctx, m);
  return media.length;
}
