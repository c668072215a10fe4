import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import type { LookupFunction } from "node:net";
import { pipeline, Readable, Transform } from "node:stream";
import { type AddressPolicy, createAddressPolicy, parseAddress } from "./address-policy.ts";
import {
  FetchTimeoutError,
  ForbiddenAddressError,
  ResponseTooLargeError,
  TooManyRedirectsError,
  UnsupportedUrlError,
} from "./errors.ts";
import { createGuardedPost, type GuardedPost } from "./guarded-post.ts";

/**
 * The one client for outgoing HTTP that Fedify does not do itself (Web Push, remote media, preview
 * cards, and Fedify's document loader). It follows the fetch() shape so callers and Fedify can use
 * it in fetch's place, with three limits of its own. Scheme rules beyond http/https (production
 * federation requires https) are the callers': plain http to a public address is fetched here.
 */
export interface GuardedRequestInit extends RequestInit {
  /** Largest response body (after decompression); reading past it errors. Default 10 MiB. */
  maxBytes?: number;
  /** The whole exchange, redirects and body included, is aborted after this. Default 10 s. */
  timeoutMs?: number;
  /** Redirects followed (each hop is checked again). Default 5. */
  maxRedirects?: number;
}

export type GuardedFetch = ((url: string | URL, init?: GuardedRequestInit) => Promise<Response>) & {
  /**
   * The same client's lean POST (guarded-post.ts), for federation delivery; absent on a client
   * that wraps this one without passing it on (callers then use the fetch shape).
   */
  post?: GuardedPost;
};

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The address is checked when the socket connects, on every address DNS returned (a host that
 * resolves to any forbidden address is refused): the address checked is the address used, so a
 * name that resolves to a public address for a check and a private one for the connection (DNS
 * rebinding) gets nowhere. IP-literal hosts skip DNS in Node, so they are checked before the request.
 */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      const bad = addresses.find((a) => !policy.allows(a.address));
      if (bad) return callback(new ForbiddenAddressError(hostname, bad.address), "", 0);
      const first = addresses[0];
      if (!first) {
        const e = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
        return callback(e, "", 0);
      }
      // Node asks for every address (happy eyeballs) or for one, and reads the callback accordingly.
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

// node:https (with node:tls) and node:zlib load on the first request that needs them, not at
// start-up (about 10 ms of CPU before the first answer).
const httpsModule = () => process.getBuiltinModule("node:https") as typeof import("node:https");
const zlib = () => process.getBuiltinModule("node:zlib") as typeof import("node:zlib");

type Agents = { http: http.Agent; https?: HttpsAgent };

export function createGuardedFetch(config: {
  /** Address ranges fetched despite being private (the operator's ALLOWED_PRIVATE_ADDRESSES). */
  allowedPrivateAddresses: string[];
  /** The server's own URL. */
  baseUrl: string;
}): GuardedFetch {
  const policy = createAddressPolicy(config.allowedPrivateAddresses);
  const lookup = guardedLookup(policy);
  // Our own keep-alive agents: Web Push sends many requests to a few push services.
  const agents: Agents = { http: new http.Agent({ keepAlive: true }) };
  const userAgent = `Gannet/0.1.0 (+${config.baseUrl})`;

  const post = createGuardedPost({
    policy,
    lookup,
    agents,
    modules: { http, https: httpsModule },
    userAgent,
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
  });

  const guarded: GuardedFetch = async (input, init = {}) => {
    const maxBytes = init.maxBytes ?? DEFAULT_MAX_BYTES;
    const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxRedirects = init.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new FetchTimeoutError(timeoutMs)), timeoutMs);
    const outer = init.signal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener("abort", onOuterAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    };

    try {
      let url = toHttpUrl(input);
      let method = (init.method ?? "GET").toUpperCase();
      const headers = new Headers(init.headers);
      let body: Buffer | undefined;
      if (init.body != null) {
        const r = new Response(init.body);
        body = Buffer.from(await r.arrayBuffer());
        const type = r.headers.get("content-type");
        if (type && !headers.has("content-type")) headers.set("content-type", type);
      }
      if (!headers.has("user-agent")) headers.set("user-agent", userAgent);
      if (!headers.has("accept-encoding")) headers.set("accept-encoding", "gzip, deflate, br");

      for (let hop = 0; ; hop++) {
        checkLiteralHost(url, policy);
        const res = await send(url, method, headers, body, lookup, agents, controller.signal);
        const location = res.headers.location;
        if (!REDIRECTS.has(res.statusCode ?? 0) || !location || init.redirect === "manual") {
          return toResponse(res, url, hop > 0, method, maxBytes, controller.signal, done);
        }
        res.resume();
        if (init.redirect === "error") throw new TypeError(`redirect refused: ${url.href} -> ${location}`);
        if (hop >= maxRedirects) throw new TooManyRedirectsError(maxRedirects);
        const next = toHttpUrl(new URL(location, url));
        const status = res.statusCode ?? 0;
        // fetch()'s rules: 303 turns anything but HEAD into GET; 301/302 turn POST into GET.
        if ((status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
          for (const h of ["content-type", "content-length", "content-encoding", "content-language"]) headers.delete(h);
        }
        if (next.origin !== url.origin) {
          headers.delete("authorization");
          headers.delete("cookie");
        }
        url = next;
      }
    } catch (e) {
      done();
      throw controller.signal.aborted ? controller.signal.reason : e;
    }
  };
  guarded.post = post;
  return guarded;
}

function toHttpUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UnsupportedUrlError(String(input));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnsupportedUrlError(url.href);
  return url;
}

function checkLiteralHost(url: URL, policy: AddressPolicy): void {
  const literal = parseAddress(url.hostname);
  if (literal && !policy.allows(url.hostname)) throw new ForbiddenAddressError(url.hostname, url.hostname);
}

function send(
  url: URL,
  method: string,
  headers: Headers,
  body: Buffer | undefined,
  lookup: LookupFunction,
  agents: Agents,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing: Record<string, string> = {};
    headers.forEach((value, key) => {
      outgoing[key] = value;
    });
    if (body) outgoing["content-length"] = String(body.length);
    const secure = url.protocol === "https:";
    if (secure) agents.https ??= new (httpsModule().Agent)({ keepAlive: true });
    const req = (secure ? httpsModule() : http).request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers: outgoing,
      agent: secure ? agents.https : agents.http,
      lookup,
      signal,
    });
    req.once("response", resolve);
    req.once("error", (e) => reject(signal.aborted ? signal.reason : e));
    req.end(body);
  });
}

function toResponse(
  res: IncomingMessage,
  url: URL,
  redirected: boolean,
  method: string,
  maxBytes: number,
  signal: AbortSignal,
  done: () => void,
): Response {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) {
    res.destroy();
    done();
    throw new TypeError(`unexpected HTTP status ${status} from ${url.href}`);
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
  }
  let stream: ReadableStream<Uint8Array> | null = null;
  if (NULL_BODY.has(status) || method === "HEAD") {
    res.resume();
    done();
  } else {
    const encoding = headers.get("content-encoding")?.trim().toLowerCase();
    const decoder = decoderFor(encoding);
    const declared = Number(headers.get("content-length"));
    if (!decoder && Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      done();
      throw new ResponseTooLargeError(maxBytes);
    }
    if (decoder) {
      // The body handed on is decoded, so the headers describing the encoded one no longer hold.
      headers.delete("content-encoding");
      headers.delete("content-length");
    }
    let total = 0;
    const limiter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        total += chunk.length;
        if (total > maxBytes) cb(new ResponseTooLargeError(maxBytes));
        else cb(null, chunk);
      },
    });
    const onAbort = () => res.destroy(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const finish = () => {
      signal.removeEventListener("abort", onAbort);
      done();
    };
    const chain = decoder ? pipeline(res, decoder, limiter, finish) : pipeline(res, limiter, finish);
    stream = Readable.toWeb(chain) as unknown as ReadableStream<Uint8Array>;
  }
  const response = new Response(stream, { status, statusText: res.statusMessage ?? "", headers });
  // fetch() reports the final URL after redirects; Fedify's document loader reads it.
  Object.defineProperty(response, "url", { value: url.href });
  Object.defineProperty(response, "redirected", { value: redirected });
  return response;
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return zlib().createGunzip();
    case "deflate":
      return zlib().createInflate();
    case "br":
      return zlib().createBrotliDecompress();
    default:
      return undefined;
  }
}
