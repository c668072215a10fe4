import type { AppContext } from "../../context.ts";

/**
 * The hashtag part of the `feeds.fan-out` job: a new public post reaches the home feeds of the
 * local accounts following one of its tags (see `TagCurationRepository.fanOutToTagFollowers`),
 * and its author's featured tags among them get their stored usage counts refreshed. Idempotent.
 * Runs before the job trims the feeds it wrote to, so these feeds are capped like home.
 */
export async function fanOutToTagFollowers(ctx: AppContext, status: { id: string; accountId: string }): Promise<void> {
  const repo = ctx.repos.tagCuration;
  const tagIds = await repo.statusTagIds(status.id);
  if (tagIds.length === 0) return;
  await repo.fanOutToTagFollowers(status.id);
  await repo.refreshFeatured(status.accountId, tagIds, new Date().toISOString());
}
