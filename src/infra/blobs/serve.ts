/**
 * The HTTP answer for a stored file (`GET /system/<key>`): its type, a long immutable cache (a
 * key never changes content: a replaced file gets a new key), no sniffing, no script, and byte
 * ranges, which browsers need to seek in video and audio (Safari plays none without them).
 */
export interface BlobResponse {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  body: Uint8Array;
}

const BASE_HEADERS = {
  "Cache-Control": "public, max-age=31536000, immutable",
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
    if (suffix === 0) return "unsatisfiable";
    return size === 0 ? "unsatisfiable" : [Math.max(0, size - suffix), size - 1];
  }
  const first = Number(a);
  const last = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  if (b !== "" && Number(b) < first) return undefined;
  if (first >= size) return "unsatisfiable";
  return [first, last];
}

export function blobResponse(
  blob: { data: Uint8Array; contentType: string },
  rangeHeader: string | undefined,
): BlobResponse {
  const size = blob.data.byteLength;
  const headers: Record<string, string> = { "Content-Type": blob.contentType, ...BASE_HEADERS };
  const range = parseRange(rangeHeader, size);
  if (range === "unsatisfiable") {
    return { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` }, body: new Uint8Array(0) };
  }
  if (!range) return { status: 200, headers, body: blob.data };
  const [first, last] = range;
  return {
    status: 206,
    headers: { ...headers, "Content-Range": `bytes ${first}-${last}/${size}` },
    body: blob.data.subarray(first, last + 1),
  };
}
