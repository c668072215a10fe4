import type { BlobUrl } from "./media-attachment.ts";

/** What the PreviewCard entity is made of (a stored card has these and more). */
export interface PreviewCardView {
  url: string;
  title: string;
  description: string;
  language: string | null;
  type: string;
  authorName: string;
  authorUrl: string;
  providerName: string;
  providerUrl: string;
  html: string;
  width: number;
  height: number;
  imageKey: string | null;
  imageDescription: string;
  embedUrl: string;
  blurhash: string | null;
  publishedAt: string | null;
}

/**
 * Mastodon's PreviewCard entity, members in Mastodon's order. `authors` (4.3) holds the one
 * author the card names, as Mastodon's does; `author_name`/`author_url` stay for older clients.
 * The image is the copy stored here, null when there is none (or its cached copy expired: the
 * card keeps its text, as Mastodon's does after its retention sweep).
 */
export function serializePreviewCard(card: PreviewCardView, blobUrl: BlobUrl): Record<string, unknown> {
  return {
    url: card.url,
    title: card.title,
    description: card.description,
    language: card.language,
    type: card.type,
    author_name: card.authorName,
    author_url: card.authorUrl,
    provider_name: card.providerName,
    provider_url: card.providerUrl,
    html: card.html,
    width: card.width,
    height: card.height,
    image: card.imageKey ? blobUrl(card.imageKey) : null,
    image_description: card.imageDescription,
    embed_url: card.embedUrl,
    blurhash: card.imageKey ? card.blurhash : null,
    published_at: card.publishedAt,
    authors: [{ name: card.authorName, url: card.authorUrl, account: null }],
  };
}
