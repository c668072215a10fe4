/**
 * A remote account's or post's web page (`url`) as Gannet keeps and serves it: only an http(s)
 * URL on the host of the object's own id (Mastodon's rule), so that a remote server cannot make
 * clients link a `javascript:` URL or another site's login page under its users' names. null
 * when `candidate` is missing or not such a URL: the caller falls back to the id.
 */
export function pageUrlOf(candidate: string | null, id: URL): string | null {
  if (candidate === null) return null;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  return url.host.toLowerCase() === id.host.toLowerCase() ? url.href : null;
}
