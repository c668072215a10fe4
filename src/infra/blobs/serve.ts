import type { BlobStore } from "./interface.ts";

/**
 * The HTTP answer for a stored file (`GET /system/<key>`): its type, a long immutable cache (a
 * key never changes content: a replaced file gets a new key), no sniffing, no script, and byte
 * ranges, which browsers need to seek in video and audio (Safari plays none without them). The
 * body is streamed from the store, so a large video is never held in memory.
 */
export interface BlobResponse {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array> | Uint8Array;
}

const BASE_HEADERS = {
  "Cache-Control": "public, max-age=31536000, immutable",
  // Public files, loaded by browser clients with `crossorigin` (as Mastodon's nginx serves them).
  "Access-Control-Allow-Origin": "*",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Accept-Ranges": "bytes",
};

/**
 * One `bytes=` range as [first, last] within `size`, "unsatisfiable", or undefined to send the
 * whole file (no header, a malformed one, several ranges or another unit, which RFC 9110 lets a
 * server ignore).
 */
export function parseRange(header: string | undefined, size: number): [number, number] | "unsatisfiable" | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return undefined;
  const [, a = "", b = ""] = m;
  if (a === "" && b === "") return undefined;
  if (a === "") {
    const suffix = Number(b);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return [Math.max(0, size - suffix), size - 1];
  }
  const first = Number(a);
  if (b !== "" && Number(b) < first) return undefined;
  if (first >= size) return "unsatisfiable";
  return [first, b === "" ? size - 1 : Math.min(Number(b), size - 1)];
}

/** The answer for `key`, or undefined when no such file is stored. */
export async function serveBlob(
  store: BlobStore,
  key: string,
  rangeHeader: string | undefined,
): Promise<BlobResponse | undefined> {
  const info = await store.stat(key);
  if (!info) return undefined;
  const { size } = info;
  const headers: Record<string, string> = { "Content-Type": info.contentType, ...BASE_HEADERS };
  const range = parseRange(rangeHeader, size);
  if (range === "unsatisfiable") {
    return { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` }, body: new Uint8Array(0) };
  }
  if (size === 0) return { status: 200, headers: { ...headers, "Content-Length": "0" }, body: new Uint8Array(0) };
  const [first, last] = range ?? [0, size - 1];
  headers["Content-Length"] = String(last - first + 1);
  if (range) headers["Content-Range"] = `bytes ${first}-${last}/${size}`;
  return { status: range ? 206 : 200, headers, body: store.stream(key, first, last) };
}
