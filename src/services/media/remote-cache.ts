import { createHash, randomBytes } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { MediaAttachment } from "../../db/repositories/media.ts";
import type { RemoteProfileImage } from "../../db/repositories/remote-media.ts";
import type { JobBatch } from "../../infra/queue/after-commit.ts";
import { MEDIA_LIMITS } from "../../lib/limits.ts";
import { fetchBytes, RemoteFetchError } from "../remote/fetch-bytes.ts";
import { deleteKeys, putAll } from "./files.ts";
import { processProfileImage } from "./process-image.ts";
import { type EncodedFile, processImage } from "./process-media.ts";
import { sniffMediaType } from "./sniff.ts";

/**
 * The remote media cache. Remote attachments, avatars and headers are downloaded through the
 * guarded client in the background when they are stored (`queueRemoteMedia`), processed as
 * local uploads are (images decoded, turned upright, stripped of metadata and re-encoded, with
 * a preview; profile images cropped), and kept in the blob store. After
 * MEDIA_CACHE_RETENTION_PERIOD days the copies are removed (`purgeRemoteMediaCache`); the rows
 * stay, and:
 * - an attachment's `url` then points at `/media_proxy/:id/original` (serializers), which fetches
 *   it again on demand and redirects to the new copy (`cacheAttachment`);
 * - an avatar or header is shown as the default image (`missing.png`) until the account is
 *   refreshed (which a stale account is on access) and the job caches it again.
 * Domains blocked with `reject_media` get nothing downloaded: their attachments are only their
 * `remote_url` (the proxy refuses them) and their accounts show the default images.
 */

export const REMOTE_MEDIA_JOB = "media.cache-remote";

const MEDIA_TIMEOUT_MS = 30_000;
const PROFILE_TIMEOUT_MS = 15_000;
/** Rows looked at per statement by the retention sweep. */
const SWEEP_BATCH = 200;

interface Payload {
  statusId?: string;
  accountId?: string;
}

/**
 * Queues the caching of a remote status's attachments (`statusId`) or a remote account's avatar
 * and header (`accountId`), for the federation code that stores them.
 */
export async function queueRemoteMedia(ctx: AppContext, payload: Payload): Promise<void> {
  const key = payload.statusId ? `s${payload.statusId}` : `a${payload.accountId}`;
  await ctx.queue.enqueue(REMOTE_MEDIA_JOB, payload, { dedupeKey: `${REMOTE_MEDIA_JOB}:${key}`, attempts: 3 });
}

/** Adds the caching of a remote status's attachments to the jobs run after its transaction commits. */
export function addRemoteMediaJob(jobs: JobBatch, statusId: string): void {
  jobs.add(REMOTE_MEDIA_JOB, { statusId } satisfies Payload, {
    dedupeKey: `${REMOTE_MEDIA_JOB}:s${statusId}`,
    attempts: 3,
  });
}

/** Whether a moderator's domain block refuses the media of `domain` (`reject_media`). */
export async function mediaRejected(ctx: AppContext, domain: string | null): Promise<boolean> {
  if (domain === null) return false;
  return (await ctx.repos.instanceDomainBlocks.ruleFor(domain))?.rejectMedia === true;
}

/** The `media.cache-remote` job. */
export async function cacheRemoteMediaJob(ctx: AppContext, payload: Payload): Promise<void> {
  if (typeof payload?.statusId === "string") {
    const media = await ctx.repos.media.listByStatuses([payload.statusId]);
    for (const m of media) if (m.remoteUrl && !m.fileKey) await cacheAttachment(ctx, m);
  }
  if (typeof payload?.accountId === "string") await cacheProfileImages(ctx, payload.accountId);
}

/**
 * Downloads and stores a remote attachment's file (images processed as uploads are, with a
 * preview; video and audio kept as they come). Answers the attachment as now stored, or
 * undefined when it cannot be cached (refused domain or address, unreachable, not media).
 */
export async function cacheAttachment(ctx: AppContext, media: MediaAttachment): Promise<MediaAttachment | undefined> {
  if (!media.remoteUrl) return undefined;
  if (media.fileKey) return media;
  const owner = await ctx.repos.accounts.getById(media.accountId);
  if (!owner || (await mediaRejected(ctx, owner.domain))) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = (
      await fetchBytes(ctx, media.remoteUrl, {
        maxBytes: media.type === "image" ? MEDIA_LIMITS.imageSizeLimit : MEDIA_LIMITS.videoSizeLimit,
        timeoutMs: MEDIA_TIMEOUT_MS,
        accept: "image/*,video/*,audio/*;q=0.9,*/*;q=0.1",
      })
    ).bytes;
  } catch (e) {
    if (e instanceof RemoteFetchError) return undefined;
    throw e;
  }
  const sniffed = sniffMediaType(bytes);
  if (!sniffed) return undefined;
  let original: EncodedFile = { data: bytes, contentType: sniffed.contentType, extension: sniffed.extension };
  let small: EncodedFile | null = null;
  let blurhash: string | null = media.blurhash;
  let meta: Record<string, unknown> = media.meta;
  let type: string = sniffed.kind;
  if (sniffed.kind === "image") {
    try {
      const processed = await processImage(bytes, sniffed);
      original = processed.original;
      small = processed.small;
      blurhash ??= processed.blurhash;
      if (Object.keys(meta).length === 0) meta = processed.meta;
      type = processed.type;
    } catch {
      return undefined;
    }
  } else if (media.type === "gifv" || media.type === "video") {
    type = media.type;
  }
  // A folder of its own per copy: a copy made again after the retention sweep gets new URLs
  // (blob URLs are cached as immutable).
  const folder = `cache/media_attachments/${media.id}/${randomBytes(6).toString("hex")}`;
  const files: [string, EncodedFile][] = [[`${folder}/original.${original.extension}`, original]];
  if (small) files.push([`${folder}/small.${small.extension}`, small]);
  await putAll(ctx, files);
  const stored = await ctx.repos.remoteMedia.setAttachmentFiles(media.id, {
    type,
    file_key: files[0]?.[0] ?? "",
    file_content_type: original.contentType,
    file_size: original.data.byteLength,
    small_key: files[1]?.[0] ?? null,
    blurhash,
    meta: JSON.stringify(meta),
  });
  if (!stored)
    await deleteKeys(
      ctx,
      files.map(([k]) => k),
    );
  return ctx.repos.media.getById(media.id);
}

async function cacheProfileImage(ctx: AppContext, image: RemoteProfileImage): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = (
      await fetchBytes(ctx, image.remoteUrl, {
        maxBytes: MEDIA_LIMITS.imageSizeLimit,
        timeoutMs: PROFILE_TIMEOUT_MS,
        accept: "image/*",
      })
    ).bytes;
  } catch (e) {
    if (e instanceof RemoteFetchError) return;
    throw e;
  }
  let processed: Awaited<ReturnType<typeof processProfileImage>>;
  try {
    processed = await processProfileImage(bytes, image.kind);
  } catch {
    return;
  }
  const key = `cache/accounts/${image.kind}s/${image.accountId}/${urlTag(image.remoteUrl)}.${processed.extension}`;
  await ctx.blobs.put(key, processed.data, processed.contentType);
  if (await ctx.repos.remoteMedia.setProfileImage(image, key, processed.contentType, image.path)) {
    await deleteKeys(ctx, [image.path]);
  } else {
    await deleteKeys(ctx, [key]);
  }
}

/**
 * A cached avatar's or header's file is named after its remote URL, so a copy of an image the
 * account no longer names is told apart without a column for it.
 */
const urlTag = (url: string): string => createHash("sha256").update(url).digest("hex").slice(0, 20);

/**
 * Caches a remote account's avatar and header unless the copy of the image it names now is
 * cached already (an updated profile names a new image: it is cached, the old copy deleted).
 */
export async function cacheProfileImages(ctx: AppContext, accountId: string): Promise<void> {
  const account = await ctx.repos.accounts.getById(accountId);
  if (!account || account.domain === null || (await mediaRejected(ctx, account.domain))) return;
  for (const image of await ctx.repos.remoteMedia.profileImages(accountId)) {
    if (image.remoteUrl === "" && image.path !== null) {
      await ctx.repos.remoteMedia.clearProfileImage(accountId, image.kind, image.path);
      await deleteKeys(ctx, [image.path]);
    } else if (image.path === null || !image.path.includes(urlTag(image.remoteUrl))) {
      await cacheProfileImage(ctx, image);
    }
  }
}

/**
 * The retention sweep (a periodic task): removes cached copies of remote attachments created,
 * remote avatars and headers last fetched, and preview card images stored more than
 * MEDIA_CACHE_RETENTION_PERIOD days ago. Rows stay. Answers how many copies went.
 */
export async function purgeRemoteMediaCache(ctx: AppContext, now = new Date()): Promise<number> {
  const days = ctx.config.mediaCacheRetentionDays;
  if (days === undefined) return 0;
  const before = new Date(now.getTime() - days * 86_400_000).toISOString();
  const { remoteMedia, previewCards } = ctx.repos;
  return (
    (await drain(
      () => remoteMedia.listCachedAttachmentsBefore(before, SWEEP_BATCH),
      (m) => uncacheAttachment(ctx, m),
    )) +
    (await drain(
      () => remoteMedia.listCachedProfilesBefore(before, SWEEP_BATCH),
      (i) => uncacheProfileImage(ctx, i),
    )) +
    (await drain(
      () => previewCards.listImagesStoredBefore(before, SWEEP_BATCH),
      async (card) => {
        await previewCards.update(card.id, { image_key: null });
        await deleteKeys(ctx, [card.imageKey]);
      },
    ))
  );
}

/**
 * Removes the cached copies of a domain's media (attachments, avatars, headers), as Mastodon does
 * when a moderator blocks the domain with `reject_media` or suspends it. Rows stay.
 */
export async function purgeDomainMediaCache(ctx: AppContext, domain: string): Promise<number> {
  const { remoteMedia } = ctx.repos;
  return (
    (await drain(
      () => remoteMedia.listCachedAttachmentsOfDomain(domain, SWEEP_BATCH),
      (m) => uncacheAttachment(ctx, m),
    )) +
    (await drain(
      () => remoteMedia.listCachedProfilesOfDomain(domain, SWEEP_BATCH),
      (i) => uncacheProfileImage(ctx, i),
    ))
  );
}

/** Takes `list` a batch at a time, `uncache` on each item, until a batch comes back short; answers how many. */
async function drain<T>(list: () => Promise<T[]>, uncache: (item: T) => Promise<void>): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await list();
    for (const item of batch) await uncache(item);
    removed += batch.length;
    if (batch.length < SWEEP_BATCH) return removed;
  }
}

async function uncacheAttachment(ctx: AppContext, m: { id: string; fileKey: string | null; smallKey: string | null }) {
  await ctx.repos.remoteMedia.clearAttachmentFiles(m.id);
  await deleteKeys(ctx, [m.fileKey, m.smallKey]);
}

async function uncacheProfileImage(
  ctx: AppContext,
  image: { accountId: string; kind: "avatar" | "header"; path: string | null },
) {
  if (image.path === null) return;
  await ctx.repos.remoteMedia.clearProfileImage(image.accountId, image.kind, image.path);
  await deleteKeys(ctx, [image.path]);
}
