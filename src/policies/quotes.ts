import type { Status, Visibility } from "../db/repositories/statuses.ts";

/**
 * Who may quote a post (Mastodon 4.5's quote approval policy). A post stores its policy as JSON
 * `{"automatic": [...], "manual": [...]}` in the QuoteApproval entity's words (public, followers,
 * following, unsupported_policy); null means nobody but the author.
 */

/** What clients ask for (`quote_approval_policy`, `source[quote_policy]`). */
export const QUOTE_POLICY_NAMES = ["public", "followers", "nobody"] as const;
export type QuotePolicyName = (typeof QUOTE_POLICY_NAMES)[number];

export interface QuotePolicy {
  automatic: string[];
  manual: string[];
}

/** For the reader: may they quote it, and how (QuoteApproval's `current_user`). */
export type QuoteApprovalForViewer = "automatic" | "manual" | "denied" | "unknown";

export const isQuotePolicyName = (v: unknown): v is QuotePolicyName =>
  typeof v === "string" && (QUOTE_POLICY_NAMES as readonly string[]).includes(v);

/**
 * The stored policy of a local post: what was asked (or the author's default), except that a
 * private or direct post may be quoted by its author only (Mastodon downgrades the policy of a
 * post that is not distributable).
 */
export function storedQuotePolicy(name: QuotePolicyName, visibility: Visibility): string | null {
  if (visibility !== "public" && visibility !== "unlisted") return null;
  if (name === "nobody") return null;
  return JSON.stringify({ automatic: [name], manual: [] });
}

const NONE: QuotePolicy = { automatic: [], manual: [] };
const parsed = new Map<string, QuotePolicy>();

/** The policy of a post (null or malformed text: nobody but the author). */
export function parseQuotePolicy(text: string | null): QuotePolicy {
  if (text === null) return NONE;
  const hit = parsed.get(text);
  if (hit) return hit;
  let out = NONE;
  try {
    const v = JSON.parse(text) as { automatic?: unknown; manual?: unknown };
    const list = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === "string") : []);
    out = { automatic: list(v.automatic), manual: list(v.manual) };
  } catch {
    out = NONE;
  }
  // Only a handful of distinct policies exist; bounded all the same.
  if (parsed.size > 1000) parsed.clear();
  parsed.set(text, out);
  return out;
}

/** The viewer's relations with a post's author that the policy may ask about. */
export interface QuoteRelation {
  /** The viewer follows the author. */
  followsAuthor: boolean;
  /** The author follows the viewer (only asked for the rare `following` policy of remote posts). */
  followedByAuthor?: boolean;
}

/**
 * Mastodon's `quote_policy_for_account`: denied without a viewer, for direct posts and boosts;
 * automatic for the author; then the automatic policy, then the manual one; `unknown` when only
 * a policy this server does not understand could allow it.
 */
export function quoteApprovalFor(
  status: Pick<Status, "accountId" | "visibility" | "reblogOfId" | "quotePolicy">,
  viewerId: string | undefined,
  rel: QuoteRelation,
): QuoteApprovalForViewer {
  if (viewerId === undefined || status.visibility === "direct" || status.reblogOfId !== null) return "denied";
  if (viewerId === status.accountId) return "automatic";
  const policy = parseQuotePolicy(status.quotePolicy);
  const allows = (list: string[]) =>
    list.includes("public") ||
    (list.includes("followers") && rel.followsAuthor) ||
    (list.includes("following") && rel.followedByAuthor === true);
  if (allows(policy.automatic)) return "automatic";
  if (allows(policy.manual)) return "manual";
  if (policy.automatic.includes("unsupported_policy") || policy.manual.includes("unsupported_policy")) return "unknown";
  return "denied";
}

/** Whether deciding the policy for a viewer needs to know if they follow the author. */
export function policyAsksFollows(status: Pick<Status, "quotePolicy">): boolean {
  const p = parseQuotePolicy(status.quotePolicy);
  return p.automatic.includes("followers") || p.manual.includes("followers");
}

/** Whether deciding the policy for a viewer needs to know if the author follows them (remote policies only). */
export function policyAsksFollowing(status: Pick<Status, "quotePolicy">): boolean {
  const p = parseQuotePolicy(status.quotePolicy);
  return p.automatic.includes("following") || p.manual.includes("following");
}
