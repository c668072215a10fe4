import type { MiddlewareHandler } from "hono";
import type { HonoEnv } from "../types.ts";

const TOO_LARGE = { error: "The request body is too large" };

/**
 * Refuses request bodies over `maxSize` bytes with 413. A declared Content-Length is checked
 * up front; a chunked body is read while counting, stopping at the limit, and then handed on
 * from memory. Requests without a body pass untouched.
 */
export function limitBody(maxSize: number): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const length = c.req.header("content-length");
    if (length !== undefined) {
      if (Number(length) > maxSize) return c.json(TOO_LARGE, 413);
      return next();
    }
    const raw = c.req.raw;
    if (c.req.header("transfer-encoding") === undefined || raw.body === null) return next();
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = raw.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxSize) {
        await reader.cancel();
        return c.json(TOO_LARGE, 413);
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const headers = new Headers(raw.headers);
    headers.delete("transfer-encoding");
    headers.set("content-length", String(size));
    c.req.raw = new Request(c.req.url, { method: raw.method, headers, body });
    return next();
  };
}
