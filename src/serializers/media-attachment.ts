import type { MediaAttachment } from "../db/repositories/media.ts";

/** Turns a blob key into its public URL (`ctx.blobs.url`). */
export type BlobUrl = (key: string) => string;

/**
 * Mastodon's MediaAttachment entity. `url` is null while processing; `preview_url` is the custom
 * thumbnail when there is one, else the small preview (none for audio, or video without ffmpeg).
 * `text_url` was removed in Mastodon 3.5 and is not sent.
 */
export function serializeMediaAttachment(media: MediaAttachment, blobUrl: BlobUrl): Record<string, unknown> {
  const ready = media.processing === "complete";
  const meta: Record<string, unknown> = { ...media.meta };
  if (media.focus) meta.focus = { x: media.focus.x, y: media.focus.y };
  const preview = media.thumbnailKey ?? (ready ? media.smallKey : null);
  return {
    id: media.id,
    type: media.type,
    url: ready ? (media.fileKey ? blobUrl(media.fileKey) : media.remoteUrl) : null,
    preview_url: preview ? blobUrl(preview) : null,
    remote_url: media.remoteUrl,
    preview_remote_url: null,
    meta,
    description: media.description,
    blurhash: media.blurhash,
  };
}
