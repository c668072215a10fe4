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
 * Recomputes `allowed` on every scored hashtag, post and link from the current switches and
 * review settings, then drops the cached trends answers everywhere. Called after each scoring
 * run and after a moderator approves or rejects something.
 */
export async function refreshAllowed(ctx: AppContext): Promise<void> {
  const review = ctx.config.trends.review;
  const repo = ctx.repos.trends;
  await repo.updateTagsAllowed(review.tags);
  await repo.updateStatusesAllowed(review.statuses);
  // A link's own switch wins; when it has none, its publisher's applies.
  const links = await repo.scoredLinks();
  const domains = new Map(links.map((l) => [l.cardId, linkDomain(l.url)]));
  const providers = await repo.providerSwitches([...domains.values()].filter((d) => d !== undefined));
  const allowed = links
    .filter((l) => {
      const domain = domains.get(l.cardId);
      const provider = domain === undefined ? null : (providers.get(domain) ?? null);
      return allowedBySwitch(l.trendable ?? provider, review.links);
    })
    .map((l) => l.cardId);
  await repo.setLinksAllowed(allowed);
  await dropTrendsCaches(ctx);
}
