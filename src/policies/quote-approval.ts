/**
 * Who may quote a post, from its `quote_policy` (QuoteApproval's words: public, followers,
 * following, unsupported_policy), as Mastodon's StatusPolicy#quote? decides for an account asking
 * from another server. Pure: the caller loads the relations.
 */

/** `statuses.quote_policy` read: the words under automatic and under manual approval. */
export interface QuotePolicy {
  automatic: string[];
  manual: string[];
}

const WORDS = new Set(["public", "followers", "following", "unsupported_policy"]);

/** The stored JSON, read leniently (anything unreadable is "only the author"). */
export function parseQuotePolicy(raw: string | null): QuotePolicy {
  if (!raw) return { automatic: [], manual: [] };
  try {
    const v = JSON.parse(raw) as { automatic?: unknown; manual?: unknown };
    const words = (x: unknown) => (Array.isArray(x) ? x.filter((w): w is string => typeof w === "string") : []);
    return { automatic: words(v.automatic), manual: words(v.manual) };
  } catch {
    return { automatic: [], manual: [] };
  }
}

/** The JSON to store; null when nobody but the author may quote. */
export function stringifyQuotePolicy(p: QuotePolicy): string | null {
  const clean = (ws: string[]) => [...new Set(ws.filter((w) => WORDS.has(w)))];
  const automatic = clean(p.automatic);
  const manual = clean(p.manual);
  return automatic.length === 0 && manual.length === 0 ? null : JSON.stringify({ automatic, manual });
}

export interface QuoterRelation {
  /** The quoter wrote the quoted post. */
  isAuthor: boolean;
  /** The quoted post mentions the quoter (Mastodon always lets them quote). */
  mentioned: boolean;
  /** The quoter follows the quoted post's author. */
  follower: boolean;
  /** The quoted post's author follows the quoter. */
  followed: boolean;
  /** Either blocks the other (or the author blocks the quoter's domain). */
  blocked: boolean;
}

/**
 * `automatic`: approved at once; `manual`: the author would have to approve (Mastodon 4.5 does
 * not ask and refuses, and so does Gannet); `denied`. Only public and unlisted posts may be
 * quoted by others.
 */
export function quoteApproval(
  policy: QuotePolicy,
  visibility: string,
  rel: QuoterRelation,
): "automatic" | "manual" | "denied" {
  if (rel.isAuthor) return "automatic";
  if (rel.blocked || (visibility !== "public" && visibility !== "unlisted")) return "denied";
  if (rel.mentioned) return "automatic";
  const grants = (words: string[]) =>
    words.includes("public") ||
    (rel.follower && words.includes("followers")) ||
    (rel.followed && words.includes("following"));
  if (grants(policy.automatic)) return "automatic";
  if (grants(policy.manual)) return "manual";
  return "denied";
}
