import type { Context } from "hono";
import { ApiError } from "../../lib/errors.ts";
import { readParams } from "../params.ts";
import type { HonoEnv } from "../types.ts";
import { errorPage } from "../web/pages/notices.ts";
import type { Params } from "./params.ts";

/** Parameters of a browser page; an unreadable body gets an HTML error page rather than JSON. */
export async function readPageParams(c: Context<HonoEnv>): Promise<Params | Response> {
  try {
    return await readParams(c);
  } catch (e) {
    if (e instanceof ApiError) return errorPage(c, e.status, "An error has occurred", e.message);
    throw e;
  }
}
