import { createHash } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { DomainBlockSeverity, InstanceDomainBlock } from "../../db/repositories/instance-domain-blocks.ts";

/**
 * Which moderated servers this server publishes (the about page and
 * `/api/v1/instance/domain_blocks`), as Mastodon's site settings `show_domain_blocks` and
 * `show_domain_blocks_rationale`: `disabled` (the default: to nobody), `users` (to signed-in
 * users) or `all` (to anyone).
 */
export type DomainBlocksVisibility = "disabled" | "users" | "all";

export const DOMAIN_BLOCKS_SETTING = {
  show: "show_domain_blocks",
  rationale: "show_domain_blocks_rationale",
} as const;

/** A moderated server as the public sees it (Mastodon's DomainBlock entity). */
export interface PublicDomainBlock {
  /** The domain, partly starred out when the moderators chose to obfuscate it. */
  domain: string;
  /** SHA-256 of the real domain, so a server can find itself in an obfuscated list. */
  digest: string;
  severity: DomainBlockSeverity;
  rejectMedia: boolean;
  /** The public comment, when rationales are shown to this reader. */
  comment: string | null;
}

const VISIBILITIES: readonly DomainBlocksVisibility[] = ["disabled", "users", "all"];
const visibilityOf = (v: unknown): DomainBlocksVisibility =>
  typeof v === "string" && (VISIBILITIES as readonly string[]).includes(v) ? (v as DomainBlocksVisibility) : "disabled";

export async function domainBlocksVisibility(
  ctx: AppContext,
): Promise<{ show: DomainBlocksVisibility; rationale: DomainBlocksVisibility }> {
  const s = await ctx.repos.settings.all();
  return {
    show: visibilityOf(s[DOMAIN_BLOCKS_SETTING.show]),
    rationale: visibilityOf(s[DOMAIN_BLOCKS_SETTING.rationale]),
  };
}

const shownTo = (v: DomainBlocksVisibility, signedIn: boolean): boolean => v === "all" || (v === "users" && signedIn);

/**
 * The domain with its middle starred out (dots kept): about a quarter of the characters stay
 * visible at each end.
 */
export function obfuscateDomain(domain: string): string {
  const keep = Math.floor(domain.length / 4);
  return [...domain].map((ch, i) => (ch === "." || i <= keep || i >= domain.length - keep ? ch : "*")).join("");
}

const SEVERITY_ORDER: Record<DomainBlockSeverity, number> = { suspend: 0, silence: 1, noop: 2 };

/** Whether a block limits anything a user would notice (Mastodon's `with_user_facing_limitations`). */
const userFacing = (b: InstanceDomainBlock): boolean => b.severity !== "noop" || b.rejectMedia;

/**
 * The moderated servers a reader may see, strictest first then by domain; undefined when the
 * operator does not publish them to this reader.
 */
export async function publicDomainBlocks(
  ctx: AppContext,
  signedIn: boolean,
): Promise<{ blocks: PublicDomainBlock[]; withComments: boolean; sameForEveryone: boolean } | undefined> {
  const visibility = await domainBlocksVisibility(ctx);
  if (!shownTo(visibility.show, signedIn)) return undefined;
  const withComments = shownTo(visibility.rationale, signedIn);
  const blocks = (await ctx.repos.instanceDomainBlocks.list())
    .filter(userFacing)
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.domain.localeCompare(b.domain))
    .map((b) => ({
      domain: b.obfuscate ? obfuscateDomain(b.domain) : b.domain,
      digest: createHash("sha256").update(b.domain).digest("hex"),
      severity: b.severity,
      rejectMedia: b.rejectMedia,
      comment: withComments ? b.publicComment || null : null,
    }));
  // Whether a signed-in reader would get the same list (so it may be cached for anyone).
  const sameForEveryone = visibility.show === "all" && visibility.rationale !== "users";
  return { blocks, withComments, sameForEveryone };
}

/**
 * Mastodon's DomainBlock entity (`GET /api/v1/instance/domain_blocks`). Its severity is `silence`
 * or `suspend`: a block that only rejects media reads as `silence`.
 */
export function publicDomainBlockJson(b: PublicDomainBlock, withComment: boolean): Record<string, unknown> {
  return {
    domain: b.domain,
    digest: b.digest,
    severity: b.severity === "suspend" ? "suspend" : "silence",
    ...(withComment ? { comment: b.comment ?? "" } : {}),
  };
}
