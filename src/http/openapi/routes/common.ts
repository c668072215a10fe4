import { z } from "zod";
import { arrayOf, boolish } from "../../validate.ts";
import type { Answer, RouteDoc } from "../types.ts";

/**
 * Shorthands for the description tables, and small zod schemas of parameters that routes read
 * by hand (each says what the route reads; the route's own schema is used wherever it has one).
 */

/** A description: summary, answer, and anything else. */
export const d = (summary: string, ok: Answer, more: Partial<RouteDoc> = {}): RouteDoc => ({ summary, ok, ...more });

/** A paginated list (`Link` header) of `entity`. */
export const pageOf = (summary: string, entity: string, limit = 20, max = 40, more: Partial<RouteDoc> = {}): RouteDoc =>
  d(summary, `${entity}[]`, { paginated: { limit, max }, ...more });

/** `{}`: Mastodon's empty success. */
export const EMPTY = { schema: { type: "object", maxProperties: 0 }, description: "An empty object" } satisfies Answer;

export const html = { schema: { type: "string" }, type: "text/html", description: "An HTML page" } satisfies Answer;
export const png: Answer = {
  schema: { type: "string", contentEncoding: "binary" },
  type: "image/png",
  description: "A PNG image",
};

export const ids = z.object({ id: arrayOf(z.string()).describe("Ids, as `id[]=1&id[]=2`") });
export const bool = boolish.optional();
export const str = z.string().optional();
