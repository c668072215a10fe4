/** The out-of-band redirect URI: the code is shown on a page instead of being sent anywhere. */
export const OOB_URI = "urn:ietf:wg:oauth:2.0:oob";

/** Mastodon caps the stored (newline-joined) redirect URI list at 2,000 characters. */
export const REDIRECT_URIS_MAX_LENGTH = 2000;
export const REDIRECT_URIS_MAX_COUNT = 20;

// Schemes that would run code in the browser when the consent page redirects there.
const FORBIDDEN_SCHEMES = new Set(["data:", "javascript:", "vbscript:"]);

/**
 * Why a redirect URI is refused (the end of a "Redirect URI ..." message), or null when it is fine.
 * Absolute URIs with any scheme are allowed, so native apps can use custom schemes
 * (`com.example.app:/oauth`, `myapp://callback`); https is not forced.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri === OOB_URI) return null;
  // Stored newline-separated, so whitespace or control characters would split or corrupt it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters on purpose
  if (/[\s\u0000-\u001f\u007f]/.test(uri)) return "must be a valid URI.";
  const scheme = /^([a-z][a-z0-9+.-]*):(.*)$/i.exec(uri);
  if (!scheme) return "must be an absolute URI.";
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return "must be a valid URI.";
  }
  if (FORBIDDEN_SCHEMES.has(parsed.protocol)) return "is forbidden by the server.";
  if (uri.includes("#")) return "cannot contain a fragment.";
  // `localhost:3000` parses as scheme "localhost"; `myapp:callback` has no hierarchical part.
  if (scheme[1].toLowerCase() === "localhost" || !scheme[2].startsWith("/")) return "must specify a scheme.";
  if ((parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname === "") {
    return "must be a valid URI.";
  }
  return null;
}

/** Splits `redirect_uris` given as one string (space or newline separated) or as an array of strings. */
export function splitRedirectUris(value: unknown): string[] | null {
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    return (value as string[]).flatMap((v) => v.split(/\s+/)).filter(Boolean);
  }
  return null;
}

/**
 * The CSP `form-action` source that lets a form submission end in a redirect to `uri`
 * (browsers check the whole redirect chain of a form submission against `form-action`).
 */
export function formActionSource(uri: string): string | null {
  if (uri === OOB_URI) return null;
  try {
    const u = new URL(uri);
    if (u.protocol === "http:" || u.protocol === "https:") return u.origin;
    return u.protocol;
  } catch {
    return null;
  }
}
