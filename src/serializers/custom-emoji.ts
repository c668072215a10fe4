import type { CustomEmoji } from "../db/repositories/custom-emojis.ts";
import type { BlobUrl } from "./media-attachment.ts";

/** Mastodon's CustomEmoji entity. A remote emoji not copied here points at its origin. */
export function serializeCustomEmoji(e: CustomEmoji, blobUrl: BlobUrl): Record<string, unknown> {
  const url = e.imageKey ? blobUrl(e.imageKey) : (e.imageRemoteUrl ?? "");
  return {
    shortcode: e.shortcode,
    url,
    static_url: e.staticKey ? blobUrl(e.staticKey) : url,
    visible_in_picker: e.visibleInPicker,
    category: e.category,
  };
}
