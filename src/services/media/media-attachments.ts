import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { MediaAttachment } from "../../db/repositories/media.ts";
import { ApiError } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { MEDIA_LIMITS } from "../../lib/limits.ts";
import { avTools } from "./av-tools.ts";
import { deleteKeys, mediaFolder, putAll } from "./files.ts";
import { enqueueMediaProcessing } from "./process-job.ts";
import {
  type EncodedFile,
  isAnimatedGif,
  type ProcessedMedia,
  previewOf,
  processImage,
  thumbnailOf,
  unprocessable,
} from "./process-media.ts";
import { processAv } from "./process-video.ts";
import { type SniffedType, sniffMediaType } from "./sniff.ts";

export type { MediaAttachment } from "../../db/repositories/media.ts";

const logger = getLogger(["gannet", "media"]);

const MiB = 1024 * 1024;
const DAY = 24 * 60 * 60 * 1000;

export interface MediaInput {
  file?: Uint8Array;
  thumbnail?: Uint8Array;
  description?: string | null;
  focus?: { x: number; y: number } | null;
}

const NOT_FOUND = "Record not found";

function checkSize(bytes: Uint8Array, sniffed: SniffedType): void {
  const limit = sniffed.kind === "image" ? MEDIA_LIMITS.imageSizeLimit : MEDIA_LIMITS.videoSizeLimit;
  if (bytes.byteLength > limit) {
    throw new ApiError(422, `Validation failed: File file size must be less than ${Math.round(limit / MiB)} MB`);
  }
}

function sniffUpload(bytes: Uint8Array): SniffedType {
  const sniffed = sniffMediaType(bytes);
  if (!sniffed) throw new ApiError(422, "Validation failed: File content type is invalid");
  checkSize(bytes, sniffed);
  return sniffed;
}

/** A custom preview for audio and video (or any upload): an image, kept in its format. */
async function processThumbnail(bytes: Uint8Array): Promise<Awaited<ReturnType<typeof thumbnailOf>>> {
  const sniffed = sniffMediaType(bytes);
  if (sniffed?.kind !== "image") {
    throw new ApiError(422, "Validation failed: Thumbnail content type is invalid");
  }
  if (bytes.byteLength > MEDIA_LIMITS.imageSizeLimit) {
    throw new ApiError(422, "Validation failed: Thumbnail file size must be less than 16 MB");
  }
  try {
    return await thumbnailOf(bytes);
  } catch {
    throw new ApiError(422, "Validation failed: Thumbnail could not be processed");
  }
}

/** An animated GIF waiting for its conversion: kept as uploaded, with its first frame as preview. */
async function pendingGifv(bytes: Uint8Array, sniffed: SniffedType): Promise<ProcessedMedia> {
  try {
    const small = await previewOf(bytes);
    return {
      type: "gifv",
      original: { data: bytes, contentType: sniffed.contentType, extension: sniffed.extension },
      small: small.file,
      blurhash: small.blurhash,
      meta: { small: small.dims },
    };
  } catch {
    throw unprocessable();
  }
}

function focusColumns(focus: MediaInput["focus"]): { focus_x: number | null; focus_y: number | null } {
  return focus ? { focus_x: focus.x, focus_y: focus.y } : { focus_x: null, focus_y: null };
}

/**
 * `POST /api/v1/media` and `/api/v2/media`. Images are processed before answering, on both
 * versions (as Mastodon does). Video and audio are checked before answering (type, size, and
 * with ffprobe their container and limits); on v1 they are then transcoded at once, while with
 * `delayAv` (v2) the rest (transcoding, the preview frame) is a durable `media.process` job, as
 * is an animated GIF's conversion to `gifv`, and the upload reads as processing until it is done.
 */
export async function createMediaAttachment(
  ctx: AppContext,
  account: Account,
  input: MediaInput,
  opts: { delayAv: boolean },
): Promise<MediaAttachment> {
  if (!input.file || input.file.byteLength === 0) throw new ApiError(422, "Validation failed: File can't be blank");
  const bytes = input.file;
  const sniffed = sniffUpload(bytes);
  const thumb = input.thumbnail ? await processThumbnail(input.thumbnail) : null;
  const id = ctx.ids.next();
  const folder = mediaFolder(id);
  const now = new Date().toISOString();

  const tools = await avTools(ctx);
  let processed: ProcessedMedia;
  let delayed = false;
  if (sniffed.kind === "image") {
    if (opts.delayAv && tools.ffmpeg && (await isAnimatedGif(bytes, sniffed))) {
      // Converted to gifv by the job; its first frame is the preview meanwhile.
      delayed = true;
      processed = await pendingGifv(bytes, sniffed);
    } else {
      processed = await processImage(bytes, sniffed, tools);
    }
  } else {
    // Probing is quick and refuses what ffprobe cannot read at once; transcoding can wait.
    delayed = opts.delayAv;
    processed = await processAv(bytes, sniffed, tools, { full: !delayed });
  }
  // The job writes the transcoded file as `original.mp4`: the upload must not sit under that key.
  const originalName = delayed && tools.ffmpeg ? "upload" : "original";
  if (thumb) processed.meta = { ...processed.meta, small: thumb.dims };

  const files: [string, EncodedFile][] = [
    [`${folder}/${originalName}.${processed.original.extension}`, processed.original],
  ];
  if (processed.small) files.push([`${folder}/small.${processed.small.extension}`, processed.small]);
  if (thumb) files.push([`${folder}/thumbnail.${thumb.file.extension}`, thumb.file]);
  await putAll(ctx, files);
  try {
    await ctx.repos.media.insert({
      id,
      account_id: account.id,
      status_id: null,
      scheduled_status_id: null,
      type: processed.type,
      file_key: files[0]?.[0] ?? null,
      file_content_type: processed.original.contentType,
      file_size: processed.original.data.byteLength,
      small_key: processed.small ? (files[1]?.[0] ?? null) : null,
      thumbnail_key: thumb ? (files[files.length - 1]?.[0] ?? null) : null,
      thumbnail_content_type: thumb?.file.contentType ?? null,
      remote_url: null,
      description: input.description || null,
      ...focusColumns(input.focus),
      blurhash: processed.blurhash ?? thumb?.blurhash ?? null,
      meta: JSON.stringify(processed.meta),
      processing: delayed ? "queued" : "complete",
      created_at: now,
      updated_at: now,
    });
  } catch (e) {
    await deleteKeys(
      ctx,
      files.map(([k]) => k),
    );
    throw e;
  }
  // Read back before the job can start, so the answer shows the upload as processing.
  const media = await ctx.repos.media.getById(id);
  if (!media) throw new ApiError(404, NOT_FOUND);
  if (delayed) {
    try {
      await enqueueMediaProcessing(ctx, id);
    } catch (e) {
      // The upload is stored: the periodic resume task enqueues it again.
      logger.error("Cannot enqueue processing of media attachment {id}: {error}", { id, error: e });
    }
  }
  return media;
}

/**
 * The account's own attachment for `GET`/`PUT /api/v1/media/:id`: 404 for another account's,
 * a missing one, or one already attached to a status (edit those through the status).
 */
export async function findOwnUnattached(ctx: AppContext, account: Account, id: string): Promise<MediaAttachment> {
  const media = isId(id) ? await ctx.repos.media.getOwned(id, account.id) : undefined;
  if (!media || media.statusId !== null) throw new ApiError(404, NOT_FOUND);
  return media;
}

/** `PUT /api/v1/media/:id`: description, focus and a custom thumbnail. */
export async function updateMediaAttachment(
  ctx: AppContext,
  media: MediaAttachment,
  input: MediaInput,
): Promise<MediaAttachment> {
  const thumb = input.thumbnail ? await processThumbnail(input.thumbnail) : null;
  const patch: Parameters<typeof ctx.repos.media.update>[1] = { updated_at: new Date().toISOString() };
  if (input.description !== undefined) patch.description = input.description || null;
  if (input.focus !== undefined) Object.assign(patch, focusColumns(input.focus));
  let thumbKey: string | null = null;
  if (thumb) {
    thumbKey = `${mediaFolder(media.id)}/thumbnail-${Date.now().toString(36)}.${thumb.file.extension}`;
    await ctx.blobs.put(thumbKey, thumb.file.data, thumb.file.contentType);
    patch.thumbnail_key = thumbKey;
    patch.thumbnail_content_type = thumb.file.contentType;
    if (media.type === "audio" || !media.blurhash) patch.blurhash = thumb.blurhash;
    // Mastodon reports the thumbnail's own size as `small`.
    patch.meta = JSON.stringify({ ...media.meta, small: thumb.dims });
  }
  try {
    await ctx.repos.media.update(media.id, patch);
  } catch (e) {
    await deleteKeys(ctx, [thumbKey]);
    throw e;
  }
  if (thumb) await deleteKeys(ctx, [media.thumbnailKey]);
  return (await ctx.repos.media.getById(media.id)) ?? media;
}

/** Removes an attachment's row and files (its files first would leave a broken row on failure). */
export async function destroyMediaAttachment(ctx: AppContext, media: MediaAttachment): Promise<void> {
  await ctx.repos.media.delete(media.id);
  await deleteKeys(ctx, [media.fileKey, media.smallKey, media.thumbnailKey]);
}

/** `DELETE /api/v1/media/:id`: only the owner's, and only while no status uses it. */
export async function deleteOwnMediaAttachment(ctx: AppContext, account: Account, id: string): Promise<void> {
  const media = isId(id) ? await ctx.repos.media.getOwned(id, account.id) : undefined;
  if (!media) throw new ApiError(404, NOT_FOUND);
  if (media.statusId !== null || media.scheduledStatusId !== null) {
    throw new ApiError(422, "Media attachment is currently used by a status");
  }
  await destroyMediaAttachment(ctx, media);
}

/**
 * Deletes uploads never attached to a status that are older than `olderThan` (a day by default,
 * as Mastodon's scheduler does), rows and files. Answers how many were removed.
 */
export async function purgeUnattachedMedia(
  ctx: AppContext,
  olderThan: Date = new Date(Date.now() - DAY),
): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await ctx.repos.media.listUnattachedBefore(olderThan.toISOString(), 100);
    for (const media of batch) await destroyMediaAttachment(ctx, media);
    removed += batch.length;
    if (batch.length < 100) return removed;
  }
}
