import type { AppContext } from "../../context.ts";

/** A body fetched from another server, whole, within the caller's bounds. */
export interface FetchedBody {
  bytes: Uint8Array;
  /** The media type without parameters, lower-cased ("" when absent). */
  contentType: string;
  /** The charset parameter, if any. */
  charset: string | undefined;
  /** Where the body came from after redirects. */
  url: string;
}

/** Not fetched: a refused address or URL, an error status, a timeout or an oversized body. */
export class RemoteFetchError extends Error {
  override name = "RemoteFetchError";
}

/**
 * GETs an http(s) URL through the guarded client (private addresses refused unless allowed,
 * redirects checked again, size and time bounded) and reads its body whole. Only 2xx answers
 * count; anything else is a `RemoteFetchError`.
 */
export async function fetchBytes(
  ctx: AppContext,
  url: string,
  opts: { maxBytes: number; timeoutMs: number; accept: string },
): Promise<FetchedBody> {
  if (!/^https?:\/\//i.test(url)) throw new RemoteFetchError(`not an http(s) URL: ${url}`);
  let res: Response;
  try {
    res = await ctx.guardedFetch(url, {
      maxBytes: opts.maxBytes,
      timeoutMs: opts.timeoutMs,
      headers: { Accept: opts.accept },
    });
  } catch (e) {
    throw new RemoteFetchError(`${url}: ${(e as Error).message}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new RemoteFetchError(`${url}: HTTP ${res.status}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    throw new RemoteFetchError(`${url}: ${(e as Error).message}`);
  }
  const type = res.headers.get("content-type") ?? "";
  const [media = "", ...params] = type.split(";");
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1])
    .find((c): c is string => c !== undefined);
  return { bytes, contentType: media.trim().toLowerCase(), charset, url: res.url || url };
}
