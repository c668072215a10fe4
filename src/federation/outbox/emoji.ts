import { Emoji, Image } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";
import type { CustomEmoji } from "../../db/repositories/custom-emojis.ts";

/**
 * A custom emoji as the `Emoji` tag Mastodon sends (`toot:Emoji`, named `:shortcode:`), with the
 * image at its stored URL. Local emojis are identified at `/emojis/{id}` as in Mastodon.
 */
export function toEmojiTag(ctx: AppContext, e: CustomEmoji): Emoji {
  const url = e.imageKey ? ctx.blobs.url(e.imageKey) : (e.imageRemoteUrl ?? "");
  return new Emoji({
    id: new URL(e.uri ?? `${ctx.config.baseUrl}/emojis/${e.id}`),
    name: `:${e.shortcode}:`,
    icon: new Image({ url: new URL(url), mediaType: e.imageContentType }),
    updated: Temporal.Instant.from(e.updatedAt),
  });
}
