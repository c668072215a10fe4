import { getLogger } from "@logtape/logtape";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError } from "../../lib/errors.ts";
import type { HonoEnv } from "../types.ts";

const logger = getLogger(["gannet", "http"]);

/** The one place where errors become responses: `{"error": "..."}` with the right status. */
export function onError(err: Error, c: Context<HonoEnv>): Response {
  if (err instanceof ApiError) {
    if (err.headers) for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json(err.toJSON(), err.status as 400);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = status === 413 ? "Payload too large" : err.message || "Bad request";
    return c.json({ error: message }, status);
  }
  if (err instanceof SyntaxError) {
    return c.json({ error: "The request body could not be parsed" }, 400);
  }
  logger.error("Unhandled error on {method} {path}: {error}", {
    method: c.req.method,
    path: c.req.path,
    error: err,
  });
  return c.json({ error: "There was a temporary problem serving your request, please try again" }, 500);
}

export function onNotFound(c: Context<HonoEnv>): Response {
  return c.json({ error: "Record not found" }, 404);
}
