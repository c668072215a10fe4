import type { Context } from "hono";
import { ApiError, OAuthError } from "../../lib/errors.ts";
import { readParams } from "../params.ts";
import type { HonoEnv } from "../types.ts";

export type Params = Record<string, unknown>;

/** A parameter of the wrong type (an array or object where a string belongs) or too long. */
export class BadParam extends Error {
  readonly param: string;
  constructor(param: string, reason: string) {
    super(`The parameter ${param} ${reason}.`);
    this.param = param;
  }
}

/** A string parameter; undefined when absent or empty; BadParam when not a string or too long. */
export function stringParam(params: Params, name: string, max = 2000): string | undefined {
  const v = params[name];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string") throw new BadParam(name, "must be a string");
  if (v.length > max) throw new BadParam(name, `is too long (maximum is ${max} characters)`);
  return v;
}

/** Rails truthiness for flags such as `force_login`. */
export function truthy(v: unknown): boolean {
  if (v === true) return true;
  return typeof v === "string" && ["true", "1", "on", "t", "yes"].includes(v.trim().toLowerCase());
}

/**
 * A `return_to` that stays on this server: a path starting with one slash. Anything else
 * (`//evil.example`, `/\evil.example`, absolute URLs, control characters) is refused, so the
 * sign-in form cannot be turned into an open redirect.
 */
export function safeReturnTo(v: unknown): string | undefined {
  if (typeof v !== "string" || v.length > 10_000) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters on purpose
  if (!v.startsWith("/") || v.startsWith("//") || v.startsWith("/\\") || /[\u0000-\u001f\u007f\s\\]/.test(v)) {
    return undefined;
  }
  return v;
}

/** Parameters of an OAuth endpoint; an unreadable body is an OAuth `invalid_request`. */
export async function oauthParams(c: Context<HonoEnv>): Promise<Params> {
  try {
    return await readParams(c);
  } catch (e) {
    if (e instanceof ApiError && !(e instanceof OAuthError)) throw new OAuthError(400, "invalid_request", e.message);
    throw e;
  }
}

/** Turns BadParam into OAuth's `invalid_request` for the JSON endpoints. */
export function asOAuthError(e: unknown): unknown {
  return e instanceof BadParam ? new OAuthError(400, "invalid_request", e.message) : e;
}
