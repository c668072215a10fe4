import type { BlobUrl } from "./media-attachment.ts";

/** What the CustomEmoji entity is made of (a custom emoji row has these and more). */
export interface CustomEmojiView {
  shortcode: string;
  imageKey: string | null;
  staticKey: string | null;
  imageRemoteUrl: string | null;
  category: string | null;
  visibleInPicker: boolean;
}

/** Mastodon's CustomEmoji entity. A remote emoji not copied here points at its origin. */
export function serializeCustomEmoji(e: CustomEmojiView, blobUrl: BlobUrl): Record<string, unknown> {
  const url = e.imageKey ? blobUrl(e.imageKey) : (e.imageRemoteUrl ?? "");
  return {
    shortcode: e.shortcode,
    url,
    static_url: e.staticKey ? blobUrl(e.staticKey) : url,
    visible_in_picker: e.visibleInPicker,
    category: e.category,
  };
}
