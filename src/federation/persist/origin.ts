import type { Context } from "@fedify/fedify";
import type { AppContext } from "../../context.ts";

/** The domain of a remote object: its URL's host with the port (`localhost:3001`), lower-case. */
export function hostOf(url: URL): string {
  return url.host.toLowerCase();
}

/** Whether two URLs share scheme, host and port: an activity may only change objects of its origin. */
export function sameOrigin(a: URL, b: URL): boolean {
  return a.origin === b.origin;
}

/** Whether `url` is on this server. */
export function isLocalUrl(ctx: Context<AppContext>, url: URL): boolean {
  return url.origin === new URL(ctx.data.config.baseUrl).origin;
}

/**
 * Options for Fedify's `get*()` accessors: the context's (signed) document loader, and objects
 * embedded from another origin fetched from their own origin instead of trusted (Fedify's
 * cross-origin rule).
 */
export function loaderOptions(ctx: Context<AppContext>) {
  return {
    documentLoader: ctx.documentLoader,
    contextLoader: ctx.contextLoader,
    crossOrigin: "ignore" as const,
  };
}
