import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { MediaAttachment, MediaUpdate } from "../../db/repositories/media.ts";
import type { JobInfo } from "../../infra/queue/interface.ts";
import { ApiError } from "../../lib/errors.ts";
import { idAtTime, isId } from "../../lib/ids.ts";
import { avTools } from "./av-tools.ts";
import { deleteKeys, mediaFolder } from "./files.ts";
import { type ProcessedMedia, processImage } from "./process-media.ts";
import { processAv } from "./process-video.ts";
import { sniffMediaType } from "./sniff.ts";

const logger = getLogger(["gannet", "media"]);

/**
 * The background half of a `POST /api/v2/media` video or audio upload (Mastodon's
 * PostProcessMediaWorker). The original file is stored and the row is `queued` before the job is
 * enqueued, so the job needs only the id: after a crash or a restart it runs again from the
 * stored file.
 */
export const MEDIA_PROCESS_JOB = "media.process";

/** Mastodon retries once; a third run covers a worker that died mid-way. */
const ATTEMPTS = 3;
const DAY = 24 * 60 * 60 * 1000;

export interface MediaProcessPayload {
  id: string;
}

const pending = (m: MediaAttachment): boolean => m.processing === "queued" || m.processing === "in_progress";

/** Enqueues processing of an upload; a job already waiting for it makes this a no-op. */
export async function enqueueMediaProcessing(ctx: AppContext, id: string): Promise<void> {
  const payload: MediaProcessPayload = { id };
  await ctx.queue.enqueue(MEDIA_PROCESS_JOB, payload, { dedupeKey: `${MEDIA_PROCESS_JOB}:${id}`, attempts: ATTEMPTS });
}

/** A file that no run can process (corrupt, missing, not video or audio): the upload fails. */
class Unprocessable extends Error {}

/**
 * Processes the stored upload: a video is probed again and, with ffmpeg, written as an MP4
 * (`original.mp4`, replacing the upload) with a preview from its first frame; an animated GIF
 * becomes `gifv`. Then the upload is marked `complete`. Idempotent: an upload that is gone,
 * complete or failed is left alone, and the files are written under the same keys on every run.
 * A corrupt file (ffprobe or ffmpeg cannot read it), or the last attempt failing, ends the
 * upload `failed` with all its files deleted: `GET /api/v1/media/:id` then answers 422, as
 * Mastodon does, and a status cannot use it.
 */
export async function processMediaJob(ctx: AppContext, payload: MediaProcessPayload, job: JobInfo): Promise<void> {
  const id = payload?.id;
  if (!isId(id)) return;
  const media = await ctx.repos.media.getById(id);
  if (!media || !pending(media)) return;
  if (media.processing === "queued") {
    await ctx.repos.media.update(id, { processing: "in_progress", updated_at: new Date().toISOString() });
  }
  const written: string[] = [];
  try {
    const blob = media.fileKey ? await ctx.blobs.get(media.fileKey) : undefined;
    if (!blob) throw new Unprocessable("its file is missing");
    const sniffed = sniffMediaType(blob.data);
    if (!sniffed) throw new Unprocessable("its file is no media");
    const tools = await avTools(ctx);
    let processed: ProcessedMedia;
    try {
      processed =
        sniffed.kind === "image"
          ? await processImage(blob.data, sniffed, tools)
          : await processAv(blob.data, sniffed, tools, { full: true });
    } catch (e) {
      if (e instanceof ApiError) throw new Unprocessable(e.message);
      throw e;
    }
    // A custom thumbnail stays the preview, and `small` keeps its size.
    const small = media.thumbnailKey && media.meta.small ? { small: media.meta.small } : {};
    const patch: MediaUpdate = {
      processing: "complete",
      type: processed.type,
      meta: JSON.stringify({ ...processed.meta, ...small }),
      updated_at: new Date().toISOString(),
    };
    const folder = mediaFolder(id);
    // The upload and a preview made at upload time (a GIF's first frame), once superseded.
    const superseded: (string | null)[] = [];
    // A file kept as uploaded (audio) still moves from `upload.*` to its `original.*` key.
    const key = `${folder}/original.${processed.original.extension}`;
    if (processed.original.data !== blob.data || key !== media.fileKey) {
      written.push(key);
      await ctx.blobs.put(key, processed.original.data, processed.original.contentType);
      patch.file_key = key;
      patch.file_content_type = processed.original.contentType;
      patch.file_size = processed.original.data.byteLength;
      if (key !== media.fileKey) superseded.push(media.fileKey);
    }
    if (processed.small) {
      const previewKey = `${folder}/small.${processed.small.extension}`;
      written.push(previewKey);
      await ctx.blobs.put(previewKey, processed.small.data, processed.small.contentType);
      patch.small_key = previewKey;
      patch.blurhash = processed.blurhash ?? media.blurhash;
      if (previewKey !== media.smallKey) superseded.push(media.smallKey);
    }
    await ctx.repos.media.update(id, patch);
    // Deleted while this ran: its row took the other files with it; the new ones go too.
    if (!(await ctx.repos.media.getById(id))) await deleteKeys(ctx, written);
    else await deleteKeys(ctx, superseded);
  } catch (e) {
    const lastTry = e instanceof Unprocessable || job.attempt >= job.maxAttempts;
    if (!lastTry) throw e;
    logger.warn("Media attachment {id} could not be processed: {error}", { id, error: e });
    await failMediaAttachment(ctx, id, written);
  }
}

/**
 * Deletes every file an upload had (and `extra`, written by the failed run), then marks it
 * `failed`: in that order, so whoever sees `failed` (a client polling the upload) finds no file
 * left. A crash in between leaves a row whose files are gone; its next run fails it again.
 */
async function failMediaAttachment(ctx: AppContext, id: string, extra: (string | null)[]): Promise<void> {
  const current = await ctx.repos.media.getById(id);
  await deleteKeys(ctx, [current?.fileKey, current?.smallKey, current?.thumbnailKey, ...extra]);
  if (current) {
    await ctx.repos.media.update(id, {
      processing: "failed",
      file_key: null,
      small_key: null,
      thumbnail_key: null,
      thumbnail_content_type: null,
      updated_at: new Date().toISOString(),
    });
  }
}

/**
 * Enqueues processing again for uploads of the last day still `queued` or `in_progress` after
 * `stalledMs` (the process died between storing an upload and enqueueing its job, or the job was
 * lost with a Redis that was flushed). Answers how many were enqueued again.
 */
export async function resumeStalledMediaProcessing(ctx: AppContext, stalledMs = 10 * 60_000): Promise<number> {
  const now = Date.now();
  const stalled = await ctx.repos.media.listStalledProcessing(
    idAtTime(new Date(now - DAY)),
    new Date(now - stalledMs).toISOString(),
    500,
  );
  for (const media of stalled) await enqueueMediaProcessing(ctx, media.id);
  return stalled.length;
}
