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

/** The query parameters a page's links do not carry over (they name the page, or hold a token). */
const NOT_CARRIED = new Set(["max_id", "min_id", "since_id", "access_token"]);

/**
 * The start of a page's links for a request URL, `<base?carried&` (or `<base?` when nothing is
 * carried), kept by URL: the same timeline page asked again (the hottest paths) costs no URL
 * parsing. Bounded; cleared whole when full.
 */
const linkHeads = new Map<string, { baseUrl: string; head: string }>();
const LINK_HEADS_MAX = 1000;

function linkHead(c: Context<HonoEnv>): string {
  const url = c.req.url;
  const baseUrl = c.env.ctx.config.baseUrl;
  const known = linkHeads.get(url);
  if (known !== undefined && known.baseUrl === baseUrl) return known.head;
  const base = new URL(c.req.path, baseUrl);
  const carried = new URLSearchParams();
  for (const [k, v] of new URL(url).searchParams) if (!NOT_CARRIED.has(k)) carried.append(k, v);
  const query = carried.toString();
  const head = `<${base.href}?${query}${query === "" ? "" : "&"}`;
  if (linkHeads.size >= LINK_HEADS_MAX) linkHeads.clear();
  linkHeads.set(url, { baseUrl, head });
  return head;
}

/** `name=value` as URLSearchParams writes it (ids are digits: as they are). */
const formPair = (name: string, value: string): string =>
  /^[0-9A-Za-z]*$/.test(value) ? `${name}=${value}` : new URLSearchParams([[name, value]]).toString();

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
  const head = linkHead(c);
  const link = (param: string, id: string, rel: string): string => `${head}${formPair(param, id)}>; rel="${rel}"`;
  let links: string;
  if (count === 0) links = link("min_id", page.minId ?? page.sinceId ?? page.maxId ?? "0", "prev");
  else {
    const next = lastId !== undefined && count >= page.limit ? link("max_id", lastId, "next") : undefined;
    const prev = firstId !== undefined ? link("min_id", firstId, "prev") : undefined;
    links = next !== undefined && prev !== undefined ? `${next}, ${prev}` : (next ?? prev ?? "");
  }
  c.header("Link", links);
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
