import { createRequire } from "node:module";
import type sanitize from "sanitize-html";

const require = createRequire(import.meta.url);
let loaded: typeof sanitize | undefined;

export type SanitizeOptions = sanitize.IOptions;

/**
 * sanitize-html, loaded on its first use rather than at start-up: with postcss and htmlparser2 it
 * is about 60 modules, which neither the first answer nor most requests need (it cleans remote
 * HTML and the operator's texts). A synchronous `require`, so callers stay synchronous.
 */
export function sanitizeHtml(html: string, options?: SanitizeOptions): string {
  loaded ??= require("sanitize-html") as typeof sanitize;
  return loaded(html, options);
}
