import type { Context } from "hono";
import { ApiError } from "../lib/errors.ts";
import { isId } from "../lib/ids.ts";
import type { IdWindow } from "../lib/pagination.ts";
import type { HonoEnv } from "./types.ts";

/** The page window a list request asks for (the same shape services and repositories take). */
export type PageParams = IdWindow;

function cursor(c: Context<HonoEnv>, name: string): string | undefined {
  const v = c.req.query(name);
  if (v === undefined || v === "") return undefined;
  // Clients sometimes send cursors that are not IDs; Mastodon ignores what it cannot use.
  return isId(v) ? v : undefined;
}

/**
 * `max_id`, `since_id`, `min_id` and `limit` of a list request. `limit` defaults to `def` and is
 * clamped to `max` (Mastodon: twice the default); a negative or non-numeric limit is a 400.
 */
export function pageParams(c: Context<HonoEnv>, def: number, max = def * 2): PageParams {
  const raw = c.req.query("limit");
  let limit = def;
  if (raw !== undefined && raw !== "") {
    if (!/^-?\d+$/.test(raw.trim())) throw new ApiError(400, "limit must be an integer");
    const n = Number(raw.trim());
    if (n < 0) throw new ApiError(400, "limit must not be negative");
    limit = n === 0 ? def : Math.min(n, max);
  }
  return { maxId: cursor(c, "max_id"), sinceId: cursor(c, "since_id"), minId: cursor(c, "min_id"), limit };
}

/**
 * Sets the `Link` header of a page. `firstId`/`lastId` are the cursors of the first (newest) and
 * last (oldest) item; other query parameters are carried over. `next` (older) is given when the
 * page is full, `prev` (newer) whenever the page has items. An empty page still gets a `prev`
 * link from the cursor it was asked with, so a client can poll for newer items.
 */
export function setLinkHeader(
  c: Context<HonoEnv>,
  page: PageParams,
  count: number,
  firstId: string | undefined,
  lastId: string | undefined,
): void {
  const base = new URL(c.req.path, c.env.ctx.config.baseUrl);
  const carried = new URLSearchParams();
  for (const [k, v] of new URL(c.req.url).searchParams) {
    if (k !== "max_id" && k !== "min_id" && k !== "since_id" && k !== "access_token") carried.append(k, v);
  }
  const link = (param: string, id: string, rel: string): string => {
    const q = new URLSearchParams(carried);
    q.set(param, id);
    return `<${base.href}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (count > 0 && lastId !== undefined && count >= page.limit) links.push(link("max_id", lastId, "next"));
  if (count > 0 && firstId !== undefined) links.push(link("min_id", firstId, "prev"));
  if (count === 0) {
    const from = page.minId ?? page.sinceId ?? page.maxId ?? "0";
    links.push(link("min_id", from, "prev"));
  }
  c.header("Link", links.join(", "));
}

/**
 * `Link` of an offset-paginated list (trends): `next` when the page is full, `prev` towards the
 * start; every page has one, the first (empty or not) linking `prev` to itself, so clients can
 * poll it.
 */
export function setOffsetLinkHeader(c: Context<HonoEnv>, limit: number, off: number, count: number): string {
  const base = new URL(c.req.path, c.env.ctx.config.baseUrl);
  const carried = new URLSearchParams();
  for (const [k, v] of new URL(c.req.url).searchParams) {
    if (k !== "offset" && k !== "access_token") carried.append(k, v);
  }
  const link = (at: number, rel: string): string => {
    const q = new URLSearchParams(carried);
    q.set("offset", String(at));
    return `<${base.href}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (count > 0 && count >= limit) links.push(link(off + count, "next"));
  links.push(link(Math.max(0, off - limit), "prev"));
  const value = links.join(", ");
  c.header("Link", value);
  return value;
}
