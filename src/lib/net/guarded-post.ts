import type http from "node:http";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type https from "node:https";
import type { LookupFunction } from "node:net";
import { type AddressPolicy, parseAddress } from "./address-policy.ts";
import { FetchTimeoutError, ForbiddenAddressError, UnsupportedUrlError } from "./errors.ts";

/**
 * A POST through the guarded client without `fetch`'s objects: one request, no redirect followed,
 * the answer read straight from Node's `IncomingMessage`. For the one caller that sends thousands
 * of small POSTs a second and reads next to nothing of the answers, federation delivery
 * (`federation/delivery-send.ts`): through the fetch-shaped client, each delivery built a
 * `Headers`, a `Response` to read the body it was given, and for the answer another `Headers`, a
 * `Transform`, a `pipeline`, a web stream and a `Response`, and closing the pipeline made a
 * `DOMException` (about 0.6 ms of the main thread per delivery, and much of its garbage).
 *
 * The same limits as the client's: the address checked when the socket connects (IP literals
 * before), the same keep-alive agents, the whole exchange ended after `timeoutMs` with
 * `FetchTimeoutError`. The answer's body is read to its end (so the connection is kept for the
 * next request) up to `drainBytes`, beyond which the connection is closed; its first `keep` bytes
 * come back as text on demand, decompressed when the server compressed them anyway.
 */
export interface PostAnswer {
  status: number;
  statusText: string;
  /** Node's parsed headers: names lower-cased, repeated ones joined. */
  headers: IncomingHttpHeaders;
  /** The headers as received, name and value alternating (for a `Headers` when one is needed). */
  rawHeaders: string[];
  /** The body's first `keep` bytes as text ("… (truncated)" follows when there was more), decoded when asked. */
  text(): string;
}

export interface GuardedPostOptions {
  /** Bytes of the answer's body kept as `text` (default 0: read and dropped). */
  keep?: number;
  /** The whole exchange, the answer's body included (default 10 s). */
  timeoutMs?: number;
}

export type GuardedPost = (
  url: URL,
  headers: Record<string, string>,
  body: Buffer | Uint8Array,
  options?: GuardedPostOptions,
) => Promise<PostAnswer>;

/** Answers with longer bodies are not read further: their connection is closed instead. */
const DRAIN_BYTES = 64 * 1024;

export function createGuardedPost(deps: {
  policy: AddressPolicy;
  lookup: LookupFunction;
  /** Shared with the fetch shape; the https agent is made on the first https request. */
  agents: { http: http.Agent; https?: https.Agent };
  /** node:https is loaded on first use (not at start-up). */
  modules: { http: typeof http; https: () => typeof https };
  userAgent: string;
  defaultTimeoutMs: number;
}): GuardedPost {
  const { policy, lookup, agents, modules, userAgent } = deps;
  return (url, headers, body, options = {}) =>
    new Promise<PostAnswer>((resolve, reject) => {
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnsupportedUrlError(url.href);
      const literal = parseAddress(url.hostname);
      if (literal && !policy.allows(url.hostname)) throw new ForbiddenAddressError(url.hostname, url.hostname);
      const timeoutMs = options.timeoutMs ?? deps.defaultTimeoutMs;
      const keep = options.keep ?? 0;
      const outgoing: Record<string, string> = { ...headers };
      outgoing["content-length"] = String(body.length);
      outgoing["user-agent"] ??= userAgent;
      const secure = url.protocol === "https:";
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      };
      if (secure) agents.https ??= new (modules.https().Agent)({ keepAlive: true });
      const req = (secure ? modules.https() : modules.http).request({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: outgoing,
        agent: secure ? agents.https : agents.http,
        lookup,
      });
      const timer = setTimeout(() => {
        const error = new FetchTimeoutError(timeoutMs);
        req.destroy(error);
        fail(error);
      }, timeoutMs);
      req.once("error", fail);
      req.once("response", (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) {
          res.destroy();
          fail(new TypeError(`unexpected HTTP status ${status} from ${url.href}`));
          return;
        }
        const kept: Buffer[] = [];
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          if (read < keep) kept.push(chunk.subarray(0, keep - read));
          read += chunk.length;
          // Too long to read for the connection's sake: closed instead (the answer stands).
          if (read > DRAIN_BYTES) res.destroy();
        });
        const done = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status,
            statusText: res.statusMessage ?? "",
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            text: () => (keep > 0 ? textOf(kept, read > keep, res.headers["content-encoding"]) : ""),
          });
        };
        res.once("end", done);
        // Closed before its end (destroyed above, or the server hung up while sending it): the
        // status and what was read still stand.
        res.once("close", done);
        res.once("error", () => {});
      });
      req.end(body);
    });
}

function textOf(kept: Buffer[], truncated: boolean, encoding: string | undefined): string {
  let bytes = Buffer.concat(kept);
  // node:zlib loads when a failure's text first needs it, not at start-up.
  const zlib = process.getBuiltinModule("node:zlib") as typeof import("node:zlib");
  const coding = encoding?.trim().toLowerCase();
  try {
    if (coding === "gzip" || coding === "x-gzip")
      bytes = zlib.gunzipSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    else if (coding === "deflate") bytes = zlib.inflateSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    else if (coding === "br") bytes = zlib.brotliDecompressSync(bytes);
  } catch {
    // A compressed body cut short or broken: its bytes as they came.
  }
  const text = new TextDecoder().decode(bytes);
  return truncated ? `${text}… (truncated)` : text;
}
