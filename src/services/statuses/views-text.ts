import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { JsonCache, sameData } from "../../lib/json-cache.ts";
import {
  quotePartsText,
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
export type OwnParts = [string, string, string, string];

export function ownParts(json: string): OwnParts {
  const content = json.indexOf(',"content":');
  const media = json.indexOf(',"media_attachments":');
  const app = json.indexOf(',"application":');
  const beforeApp = app >= 0 && app < media ? app : media;
  return [json.slice(0, content), json.slice(content, beforeApp), json.slice(beforeApp, media), json.slice(media, -1)];
}

function ownCache(ctx: AppContext): JsonCache<StatusOwnView, OwnParts> {
  let cache = ownTexts.get(ctx);
  if (cache === undefined) {
    // A few KB each (the rows and the text): bounded to some 20 MB. The status row is kept as a
    // copy: the object a request read is tied (loaded.ts) to everything that request loaded,
    // which an entry would otherwise keep alive (measured: 600 MB after the benchmark).
    cache = new JsonCache<StatusOwnView, OwnParts>(4000, sameData, (v) => ({ ...v, status: { ...v.status } }));
    ownTexts.set(ctx, cache);
  }
  return cache;
}

/** Where a status's JSON goes: `add` for text made now, `kept` for kept texts (the same string each time). */
interface Sink {
  add(text: string): void;
  kept(text: string): void;
}

/** `serializeStatus(view)` as JSON, member for member in the same order, into `sink`. */
function writeStatus(
  view: StatusView,
  opts: StatusSerializeOptions,
  cache: JsonCache<StatusOwnView, OwnParts>,
  sink: Sink,
): void {
  const [head, content, application, tail] = cache.text(
    view.status.id,
    {
      status: view.status,
      mentions: view.mentions,
      tags: view.tags,
      application: view.application,
      media: view.media,
      emojis: view.emojis,
      card: view.card,
    },
    (v) => ownParts(JSON.stringify(serializeStatusOwn(v, opts))),
  );
  sink.kept(head);
  const f = view.viewer;
  if (f) {
    sink.add(
      `,"favourited":${f.favourited},"reblogged":${f.reblogged},"muted":${f.muted},"bookmarked":${f.bookmarked}`,
    );
    if (f.pinned !== undefined) sink.add(`,"pinned":${f.pinned}`);
  }
  sink.kept(content);
  sink.add(`,"filtered":${JSON.stringify(view.filtered ?? [])},"reblog":`);
  if (view.reblog) writeStatus(view.reblog, opts, cache, sink);
  else sink.add("null");
  sink.kept(application);
  sink.add(`,"account":`);
  if (view.accountText !== undefined) sink.kept(view.accountText);
  else sink.add(JSON.stringify(view.account));
  sink.kept(tail);
  sink.add(`,"poll":${JSON.stringify(serializeStatusPoll(view, opts))}${quotePartsText(view, opts)}}`);
}

/**
 * UTF-8 bytes of kept texts, by the text itself (a kept text is the same string object each
 * time, whose hash V8 keeps): writing an answer then copies bytes instead of encoding it all.
 */
const keptBytes = new Map<string, Buffer>();
const MAX_KEPT_BYTES = 20_000;

/**
 * The UTF-8 bytes of a text to keep, in a buffer of its own, not a slice of Node's shared 8 KB
 * pool: a kept slice would keep its whole pool block alive long after the texts around it went.
 */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

function bytesOf(text: string): Buffer {
  let bytes = keptBytes.get(text);
  if (bytes === undefined) {
    bytes = ownBytes(text);
    keptBytes.set(text, bytes);
    if (keptBytes.size > MAX_KEPT_BYTES) {
      const oldest = keptBytes.keys().next().value;
      if (oldest !== undefined) keptBytes.delete(oldest);
    }
  }
  return bytes;
}

/**
 * JSON made in UTF-8 from pieces: text made now (`add`), kept texts (`kept`, their bytes kept)
 * and kept bytes (`bytes`), written into one buffer at the end (no buffer per piece).
 */
export class JsonBytes implements Sink {
  readonly #parts: (string | Buffer)[] = [];
  #pending = "";
  #length = 0;

  add(text: string): void {
    this.#pending += text;
  }

  #flush(): void {
    if (this.#pending === "") return;
    this.#parts.push(this.#pending);
    this.#length += Buffer.byteLength(this.#pending);
    this.#pending = "";
  }

  /** Bytes kept by the caller (the same buffer each time). */
  bytes(b: Buffer): void {
    this.#flush();
    this.#parts.push(b);
    this.#length += b.length;
  }

  kept(text: string): void {
    this.bytes(bytesOf(text));
  }

  finish(): Buffer {
    this.#flush();
    const out = Buffer.allocUnsafe(this.#length);
    let at = 0;
    for (const p of this.#parts) at += typeof p === "string" ? out.write(p, at) : p.copy(out, at);
    return out;
  }
}

/** Views as one JSON array in UTF-8. */
function statusesBytes(
  views: readonly StatusView[],
  opts: StatusSerializeOptions,
  cache: JsonCache<StatusOwnView, OwnParts>,
) {
  const out = new JsonBytes();
  out.add("[");
  views.forEach((v, i) => {
    if (i > 0) out.add(",");
    writeStatus(v, opts, cache, out);
  });
  out.add("]");
  return out.finish();
}

/** The views `statusesJson` renders, with what they are rendered with. */
async function loadViews(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: ViewerId,
  filterContext?: FilterScope,
) {
  const scope = viewerId === undefined || statuses.length === 0 ? undefined : (filterContext ?? "any");
  const [loaded, filters] = await Promise.all([
    loadStatusViews(ctx, statuses, viewerId, { accountText: true }),
    scope && viewerId ? loadFilters(ctx, viewerId, scope) : [],
  ]);
  const views = applyFilters(loaded, filters, scope !== "any");
  const serialize: StatusSerializeOptions = { baseUrl: ctx.config.baseUrl, blobUrl: (key) => ctx.blobs.url(key) };
  return { views, serialize, cache: ownCache(ctx) };
}

/**
 * `statusesJson` (without `withSource`) as writers of each status's JSON into a `JsonBytes`,
 * by id: those a `hide` filter matches are left out.
 */
export async function statusWriters(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: ViewerId,
  opts: { filterContext?: FilterScope } = {},
): Promise<Map<string, (out: JsonBytes) => void>> {
  const { views, serialize, cache } = await loadViews(ctx, statuses, viewerId, opts.filterContext);
  return new Map(views.map((v) => [v.status.id, (out: JsonBytes) => writeStatus(v, serialize, cache, out)]));
}

/** `statusesJson` (without `withSource`) as one JSON array, in UTF-8. */
export async function statusesText(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: ViewerId,
  opts: { filterContext?: FilterScope } = {},
): Promise<Buffer> {
  const { views, serialize, cache } = await loadViews(ctx, statuses, viewerId, opts.filterContext);
  return statusesBytes(views, serialize, cache);
}
