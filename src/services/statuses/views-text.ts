import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { JsonCache, sameData } from "../../lib/json-cache.ts";
import {
  type StatusOwnView,
  type StatusSerializeOptions,
  type StatusView,
  serializeStatusOwn,
  serializeStatusPoll,
} from "../../serializers/status.ts";
import { applyFilters, type FilterScope, loadFilters } from "../filters/match.ts";
import { loadStatusViews, type ViewerId } from "./views.ts";

/**
 * Status lists as JSON text, for the busiest lists (timelines): the same JSON as `statusesJson`,
 * with the parts that are the same for every viewer (a status's own fields, media, mentions,
 * tags, emojis; its author's Account) kept rendered between requests. Each kept text is used
 * only when the rows this request read are equal to those it was rendered from
 * (lib/json-cache.ts), so an edit, a new favourite count, a media description or an account
 * change shows at once, from whichever process it came. The viewer's flags, `filtered` and
 * polls (live tallies, the viewer's votes) are rendered every time.
 */
const ownTexts = new WeakMap<AppContext, JsonCache<StatusOwnView, OwnParts>>();

/**
 * A status's own JSON text cut where the rest goes (serializeStatusOwn's order): before
 * `content` (the viewer's flags), before `application` or `media_attachments` (`filtered`,
 * `reblog`), before `media_attachments` (`account`), and the end (`poll`). Keys are found by
 * their quoted names, which no JSON string value can hold unescaped.
 */
type OwnParts = [string, string, string, string];

function ownParts(json: string): OwnParts {
  const content = json.indexOf(',"content":');
  const media = json.indexOf(',"media_attachments":');
  const app = json.indexOf(',"application":');
  const beforeApp = app >= 0 && app < media ? app : media;
  return [json.slice(0, content), json.slice(content, beforeApp), json.slice(beforeApp, media), json.slice(media, -1)];
}

function ownCache(ctx: AppContext): JsonCache<StatusOwnView, OwnParts> {
  let cache = ownTexts.get(ctx);
  if (cache === undefined) {
    // A few KB each (the rows and the text): bounded to some 20 MB.
    cache = new JsonCache<StatusOwnView, OwnParts>(4000, sameData);
    ownTexts.set(ctx, cache);
  }
  return cache;
}

/** `serializeStatus(view)` as JSON text, member for member in the same order. */
function statusText(view: StatusView, opts: StatusSerializeOptions, cache: JsonCache<StatusOwnView, OwnParts>): string {
  const [head, content, application, tail] = cache.text(
    view.status.id,
    {
      status: view.status,
      mentions: view.mentions,
      tags: view.tags,
      application: view.application,
      media: view.media,
      emojis: view.emojis,
    },
    (v) => ownParts(JSON.stringify(serializeStatusOwn(v, opts))),
  );
  let out = head;
  const f = view.viewer;
  if (f) {
    out += `,"favourited":${f.favourited},"reblogged":${f.reblogged},"muted":${f.muted},"bookmarked":${f.bookmarked}`;
    if (f.pinned !== undefined) out += `,"pinned":${f.pinned}`;
  }
  out += content;
  out += `,"filtered":${JSON.stringify(view.filtered ?? [])}`;
  out += `,"reblog":${view.reblog ? statusText(view.reblog, opts, cache) : "null"}`;
  out += application;
  out += `,"account":${view.accountText ?? JSON.stringify(view.account)}`;
  out += tail;
  out += `,"poll":${JSON.stringify(serializeStatusPoll(view, opts))}}`;
  return out;
}

/**
 * `statusesJson` (without `withSource`) as JSON texts, with their ids: those a `hide` filter
 * matches are left out.
 */
export async function statusTexts(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: ViewerId,
  opts: { filterContext?: FilterScope } = {},
): Promise<{ id: string; text: string }[]> {
  const scope = viewerId === undefined || statuses.length === 0 ? undefined : (opts.filterContext ?? "any");
  const [loaded, filters] = await Promise.all([
    loadStatusViews(ctx, statuses, viewerId, { accountText: true }),
    scope && viewerId ? loadFilters(ctx, viewerId, scope) : [],
  ]);
  const views = applyFilters(loaded, filters, scope !== "any");
  const serialize: StatusSerializeOptions = { baseUrl: ctx.config.baseUrl, blobUrl: (key) => ctx.blobs.url(key) };
  const cache = ownCache(ctx);
  return views.map((v) => ({ id: v.status.id, text: statusText(v, serialize, cache) }));
}

/** `statusesJson` (without `withSource`) as one JSON array text. */
export async function statusesText(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: ViewerId,
  opts: { filterContext?: FilterScope } = {},
): Promise<string> {
  return `[${(await statusTexts(ctx, statuses, viewerId, opts)).map((s) => s.text).join(",")}]`;
}
