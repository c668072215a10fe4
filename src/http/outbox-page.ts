const OUTBOX_PATH = /^\/users\/[^/]+\/outbox\/?$/;

/**
 * Mastodon's outbox pages are `?page=true` (the newest) and `?page=true&max_id=ID` (older than
 * ID), and crawlers ask for them directly; Fedify's are `?cursor=`, whose cursors are the same
 * "older than" ids (dispatchers/collections.ts). A Mastodon page request is handed to Fedify as
 * the matching cursor; anything else passes unchanged.
 */
export function outboxPageAlias(request: Request): Request {
  if (request.method !== "GET" && request.method !== "HEAD") return request;
  const url = new URL(request.url);
  if (!OUTBOX_PATH.test(url.pathname) || url.searchParams.get("page") !== "true") return request;
  if (url.searchParams.has("cursor")) return request;
  const maxId = url.searchParams.get("max_id");
  url.search = "";
  url.searchParams.set("cursor", maxId !== null && /^[0-9]{1,20}$/.test(maxId) ? maxId : "first");
  return new Request(url, { method: request.method, headers: request.headers });
}
