/** Turns a blob key into its public URL (`ctx.blobs.url`). */
export type BlobUrl = (key: string) => string;

/** What the MediaAttachment entity is made of (an attachment row has these and more). */
export interface MediaAttachmentView {
  id: string;
  type: string;
  fileKey: string | null;
  smallKey: string | null;
  thumbnailKey: string | null;
  remoteUrl: string | null;
  description: string | null;
  focus: { x: number; y: number } | null;
  blurhash: string | null;
  /** Mastodon's `meta` without `focus`. */
  meta: Record<string, unknown>;
  processing: string;
}

/**
 * Mastodon's MediaAttachment entity. `url` is null while processing; `preview_url` is the custom
 * thumbnail when there is one, else the small preview (none for audio, or video without ffmpeg).
 * `text_url` was removed in Mastodon 3.5 and is not sent. A remote attachment not cached here
 * (not yet, or no more after the retention period) points, as in Mastodon, at this server's
 * `/media_proxy/:id/...` (`proxyBase`), which caches it on demand (services/media/remote-cache.ts);
 * its remote address is only `remote_url`, never `url`: clients load `url` for every viewer.
 * Without `proxyBase` (no remote media are expected there) its `url` is null.
 */
export function serializeMediaAttachment(
  media: MediaAttachmentView,
  blobUrl: BlobUrl,
  proxyBase?: string,
): Record<string, unknown> {
  const ready = media.processing === "complete";
  const meta: Record<string, unknown> = { ...media.meta };
  if (media.focus) meta.focus = { x: media.focus.x, y: media.focus.y };
  // A preview made at upload (a GIF's first frame) is shown while the file is processed.
  const preview = media.thumbnailKey ?? media.smallKey;
  const uncached = !media.fileKey && media.remoteUrl !== null;
  const proxy = uncached && proxyBase !== undefined ? `${proxyBase}/media_proxy/${media.id}` : null;
  // Only images have a small version the proxy can make; a video's would be the video itself.
  const visual = media.type === "image" || media.type === "gifv";
  return {
    id: media.id,
    type: media.type,
    url: !ready ? null : media.fileKey ? blobUrl(media.fileKey) : proxy ? `${proxy}/original` : null,
    preview_url: preview ? blobUrl(preview) : proxy && visual ? `${proxy}/small` : null,
    remote_url: media.remoteUrl,
    preview_remote_url: null,
    meta,
    description: media.description,
    blurhash: media.blurhash,
  };
}
