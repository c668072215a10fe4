import type { PreviewCard } from "../db/repositories/preview-cards.ts";
import type { BlobUrl } from "./media-attachment.ts";

/**
 * Mastodon's PreviewCard entity, members in Mastodon's order. `authors` (4.3) holds the one
 * author the card names, as Mastodon's does; `author_name`/`author_url` stay for older clients.
 * The image is the copy stored here, null when there is none (or its cached copy expired: the
 * card keeps its text, as Mastodon's does after its retention sweep).
 */
export function serializePreviewCard(card: PreviewCard, blobUrl: BlobUrl): Record<string, unknown> {
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
