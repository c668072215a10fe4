import type { AppContext } from "../../context.ts";
import { dropTrendsCaches } from "./cache.ts";

/** The publisher of a link: its host name, lower-cased (Mastodon's PreviewCardProvider domain). */
export function linkDomain(url: string): string | undefined {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === "" ? undefined : host;
  } catch {
    return undefined;
  }
}

/**
 * Whether an item with moderator switch `trendable` (null: not reviewed) may be shown: under
 * review only approved ones, else all but rejected ones.
 */
export function allowedBySwitch(trendable: boolean | null, review: boolean): boolean {
  return review ? trendable === true : trendable !== false;
}

/**
 * Which of `links` may be shown (their ids): a link's own switch wins; when it has none, its
 * publisher's (by host name) applies.
 */
export async function allowedLinks(
  ctx: AppContext,
  links: readonly { cardId: string; url: string; trendable: boolean | null }[],
): Promise<Set<string>> {
  const domains = new Map(links.map((l) => [l.cardId, linkDomain(l.url)]));
  const providers = await ctx.repos.trends.providerSwitches([...domains.values()].filter((d) => d !== undefined));
  const out = new Set<string>();
  for (const l of links) {
    const domain = domains.get(l.cardId);
    const provider = domain === undefined ? null : (providers.get(domain) ?? null);
    if (allowedBySwitch(l.trendable ?? provider, ctx.config.trends.review.links)) out.add(l.cardId);
  }
  return out;
}

/**
 * Recomputes `allowed` on every scored hashtag, post and link from the current switches and
 * review settings, then drops the cached trends answers everywhere. Called after a moderator
 * approves or rejects something (a scoring run sets `allowed` as it writes each list).
 */
export async function refreshAllowed(ctx: AppContext): Promise<void> {
  const review = ctx.config.trends.review;
  const repo = ctx.repos.trends;
  await repo.updateTagsAllowed(review.tags);
  await repo.updateStatusesAllowed(review.statuses);
  await repo.setLinksAllowed([...(await allowedLinks(ctx, await repo.scoredLinks()))]);
  await dropTrendsCaches(ctx);
}
