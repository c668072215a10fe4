import type { Context } from "hono";
import { isId } from "../../../lib/ids.ts";
import { liveFeedAccessFor, liveFeedScope } from "../../../services/feeds/live-feed-access.ts";
import { homeTimelineText, publicTimeline, tagTimeline } from "../../../services/feeds/timelines.ts";
import { listTimelineText } from "../../../services/lists/feeds.ts";
import { getMarkers } from "../../../services/markers.ts";
import { savedStatusesPage } from "../../../services/statuses/pages.ts";
import { statusesText } from "../../../services/statuses/views-text.ts";
import type { HonoEnv } from "../../types.ts";
import type { RStatus } from "./render.ts";

/**
 * The first render's data of the client's timelines: the same services and serializers as the
 * API routes of the same timelines (src/http/api/v1/timelines, lists, statuses/list-routes), as
 * the signed-in viewer, so a page shows exactly what the API answers for the same window.
 */

/** Posts on the first render of home; the other timelines show 20 (the API's default). */
export const HOME_LIMIT = 40;
export const PAGE_LIMIT = 20;

/** One page of a timeline as the API gives it: its posts and the API's `next` link (older posts). */
export interface TimelineData {
  /** The API's JSON of the page (for home and lists, the kept one: the same Buffer while the page is unchanged). */
  body: Buffer;
  /** The API path and query of the next (older) page, as its `Link: rel="next"` names it; none at the end. */
  next?: string;
  /** The cursor the page's own `?max_id=` link (reading without script) continues from. */
  nextMaxId?: string;
  /** Set when the operator's live feed access leaves nothing of this timeline to the viewer. */
  closed?: boolean;
}

/** The window a page was asked for: `?max_id=` (reading on without script), and the page size. */
export interface Window {
  maxId?: string;
  limit: number;
}

/** `?max_id=` of a page request, when it is an id. */
export function windowOf(c: Context<HonoEnv>, limit: number): Window {
  const raw = c.req.query("max_id");
  return { maxId: raw && isId(raw) ? raw : undefined, limit };
}

/**
 * The API's `next` link for a page, as `setLinkHeader` makes it (src/http/pagination.ts): given
 * when the window found a full page, from the cursor of its last (oldest) row.
 */
function nextOf(apiPath: string, query: Record<string, string>, rows: readonly { id: string }[], w: Window) {
  const last = rows.at(-1)?.id;
  if (rows.length < w.limit || last === undefined) return {};
  const q = new URLSearchParams({ ...query, limit: String(w.limit), max_id: last });
  return { next: `${apiPath}?${q}`, nextMaxId: last };
}

const parsed = new WeakMap<Buffer, RStatus[]>();

/** The posts of a page's JSON, parsed once per body (the kept home page's body is reused while unchanged). */
export function statusesOf(data: TimelineData): RStatus[] {
  let list = parsed.get(data.body);
  if (list === undefined) {
    list = JSON.parse(data.body.toString("utf8")) as RStatus[];
    parsed.set(data.body, list);
  }
  return list;
}

const EMPTY = Buffer.from("[]");

/** `GET /api/v1/timelines/home` (the kept-render path). */
export async function homeData(c: Context<HonoEnv>, viewerId: string, w: Window): Promise<TimelineData> {
  const { rows, body } = await homeTimelineText(c.env.ctx, viewerId, { maxId: w.maxId, limit: w.limit });
  return { body, ...nextOf("/api/v1/timelines/home", {}, rows, w) };
}

/**
 * `GET /api/v1/timelines/public` (`local=true` for the local one) for a signed-in viewer, within the
 * operator's live feed access (a closed part gives an empty page, as the API does; staff who may
 * view feeds read a turned-off one).
 */
export async function publicData(
  c: Context<HonoEnv>,
  viewer: { accountId: string; roleId: string },
  local: boolean,
  w: Window,
): Promise<TimelineData> {
  const ctx = c.env.ctx;
  const wanted = { local, remote: false, onlyMedia: false };
  const viewerId = viewer.accountId;
  const scope = liveFeedScope(await liveFeedAccessFor(ctx, viewer.roleId), wanted, true);
  if (scope === "signIn" || scope === "none") return { body: EMPTY, closed: true };
  const result = await publicTimeline(ctx, viewerId, { ...wanted, ...scope }, { maxId: w.maxId, limit: w.limit });
  const body = await statusesText(ctx, result.visible, viewerId, { filterContext: "public" });
  return {
    body,
    ...nextOf("/api/v1/timelines/public", local ? { local: "true" } : {}, result.rows, w),
  };
}

/** `GET /api/v1/timelines/tag/:hashtag`. */
export async function tagData(c: Context<HonoEnv>, viewerId: string, name: string, w: Window): Promise<TimelineData> {
  const ctx = c.env.ctx;
  const result = await tagTimeline(
    ctx,
    viewerId,
    name,
    { any: [], all: [], none: [] },
    { local: false, remote: false, onlyMedia: false },
    { maxId: w.maxId, limit: w.limit },
  );
  const body = await statusesText(ctx, result.visible, viewerId, { filterContext: "public" });
  return { body, ...nextOf(`/api/v1/timelines/tag/${encodeURIComponent(name)}`, {}, result.rows, w) };
}

/** `GET /api/v1/timelines/list/:list_id` (throws the API's 404 for a list that is not the viewer's). */
export async function listData(
  c: Context<HonoEnv>,
  viewerId: string,
  listId: string,
  w: Window,
): Promise<TimelineData> {
  const { rows, body } = await listTimelineText(c.env.ctx, viewerId, listId, { maxId: w.maxId, limit: w.limit });
  return { body, ...nextOf(`/api/v1/timelines/list/${listId}`, {}, rows, w) };
}

/** `GET /api/v1/bookmarks` and `/api/v1/favourites`: paged by the bookmark's or favourite's id. */
export async function savedData(
  c: Context<HonoEnv>,
  viewerId: string,
  kind: "bookmarks" | "favourites",
  w: Window,
): Promise<TimelineData> {
  const ctx = c.env.ctx;
  const { rows, statuses } = await savedStatusesPage(ctx, kind, viewerId, { maxId: w.maxId, limit: w.limit });
  const body = await statusesText(ctx, statuses, viewerId);
  return { body, ...nextOf(`/api/v1/${kind}`, {}, rows, w) };
}

/** The viewer's home marker (`GET /api/v1/markers?timeline[]=home`), when it has one. */
export async function homeMarker(c: Context<HonoEnv>, viewerId: string): Promise<string | undefined> {
  const [marker] = await getMarkers(c.env.ctx, viewerId, ["home"]);
  return marker?.lastReadId;
}
