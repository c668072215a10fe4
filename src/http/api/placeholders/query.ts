import type { Context } from "hono";
import { badRequest } from "../../../lib/errors.ts";
import type { HonoEnv } from "../../types.ts";

const TRUTHY = new Set(["true", "1", "on", "t", "yes"]);

/** Rails truthiness of a parameter value. */
export function truthy(v: unknown): boolean {
  return v === true || (typeof v === "string" && TRUTHY.has(v.trim().toLowerCase()));
}

/**
 * `offset` of an offset-paginated list: a non-negative integer, 0 when absent or empty. One
 * past 2^53 is taken as 2^53 - 1 (an empty page): the databases refuse an OFFSET beyond their
 * 64-bit range, which was a 500.
 */
export function offsetParam(c: Context<HonoEnv>): number {
  const raw = c.req.query("offset")?.trim();
  if (raw === undefined || raw === "") return 0;
  if (!/^\d+$/.test(raw)) throw badRequest("offset must be a non-negative integer");
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}
