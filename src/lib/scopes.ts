/** Mastodon's OAuth scope hierarchy. */

const READ = [
  "accounts",
  "blocks",
  "bookmarks",
  "collections",
  "favourites",
  "filters",
  "follows",
  "lists",
  "mutes",
  "notifications",
  "search",
  "statuses",
];
const WRITE = [
  "accounts",
  "blocks",
  "bookmarks",
  "collections",
  "conversations",
  "favourites",
  "filters",
  "follows",
  "lists",
  "media",
  "mutes",
  "notifications",
  "reports",
  "statuses",
];
const ADMIN = [
  "accounts",
  "reports",
  "domain_allows",
  "domain_blocks",
  "ip_blocks",
  "email_domain_blocks",
  "canonical_email_blocks",
];
const FOLLOW = ["read:blocks", "read:follows", "read:mutes", "write:blocks", "write:follows", "write:mutes"];

/** Every scope an application may ask for, in Mastodon's order. */
export const ALL_SCOPES: readonly string[] = [
  "read",
  ...READ.map((s) => `read:${s}`),
  "write",
  ...WRITE.map((s) => `write:${s}`),
  "follow",
  "push",
  "profile",
  "admin:read",
  ...ADMIN.map((s) => `admin:read:${s}`),
  "admin:write",
  ...ADMIN.map((s) => `admin:write:${s}`),
  // End-to-end encryption (Mastodon 3.3 to 4.2): a scope of its own, which neither `read` nor
  // `write` grants.
  "crypto",
];

const KNOWN = new Set(ALL_SCOPES);

export const DEFAULT_SCOPES = ["read"];

export function isKnownScope(s: string): boolean {
  return KNOWN.has(s);
}

/** Splits a scope string (space or `+` separated, as clients send it). */
export function parseScopes(s: string | undefined | null): string[] {
  if (!s) return [];
  return [...new Set(s.split(/[\s+]+/).filter(Boolean))];
}

/** Whether a token holding `granted` has the single scope `wanted`. */
export function grants(granted: readonly string[], wanted: string): boolean {
  for (const g of granted) {
    if (g === wanted) return true;
    if (g === "follow" && FOLLOW.includes(wanted)) return true;
    if ((g === "read" || g === "write" || g === "admin:read" || g === "admin:write") && wanted.startsWith(`${g}:`)) {
      return true;
    }
  }
  return false;
}

/** Whether `granted` satisfies any one of `anyOf` (Mastodon's `doorkeeper_authorize! :a, :b`). */
export function grantsAny(granted: readonly string[], anyOf: readonly string[]): boolean {
  return anyOf.some((w) => grants(granted, w));
}

/** Whether every scope in `requested` is covered by `allowed` (token scopes must be a subset of the app's). */
export function isSubset(requested: readonly string[], allowed: readonly string[]): boolean {
  return requested.every((r) => allowed.includes(r) || grants(allowed, r));
}

/** What a signed-in browser session may do in the API it calls (the admin API): everything its user may. */
export const ADMIN_SESSION_SCOPES: readonly string[] = [
  "read",
  "write",
  "follow",
  "push",
  "profile",
  "admin:read",
  "admin:write",
];
