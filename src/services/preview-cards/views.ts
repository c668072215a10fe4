import type { AppContext } from "../../context.ts";
import { serializePreviewCard } from "../../serializers/preview-card.ts";

/** A status's preview card (Mastodon's PreviewCard), or `{}` without one, as Mastodon 2.x answered. */
export async function statusCardJson(ctx: AppContext, statusId: string): Promise<Record<string, unknown>> {
  const card = (await ctx.repos.previewCards.byStatuses([statusId])).get(statusId);
  return card ? serializePreviewCard(card, (key) => ctx.blobs.url(key)) : {};
}
