import { getLogger } from "@logtape/logtape";
import type { MiddlewareHandler } from "hono";
import type { HonoEnv } from "../types.ts";

const logger = getLogger(["gannet", "http"]);

/**
 * The path of a request URL as sent (still percent-encoded, so no line break can reach the log),
 * without its query: tokens travel there (`access_token`, OAuth codes), so none of it is logged.
 */
export function loggedPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.indexOf("?", start);
  return url.slice(start, end < 0 ? undefined : end);
}

/** Writes one request's line: `GET /api/v1/timelines/home 200 4.2ms 1234` (`who`: an account id or `-`). */
export function logRequest(method: string, url: string, status: number, startedAt: number, who: string): void {
  const ms = (performance.now() - startedAt).toFixed(1);
  const line = `${method} ${loggedPath(url)} ${status} ${ms}ms ${who}`;
  // LogTape reads `{name}` in a message as a placeholder; `{{` is a literal brace.
  logger.info(line.replace(/[{}]/g, (b) => b + b));
}

/**
 * LOG_REQUESTS: one info line per request once its answer is ready (a stream's body may go on),
 * the last field the signed-in account's id or `-`. Registered only when the setting is on, so
 * it costs nothing otherwise. The Authorization header and the query are never logged.
 */
export function requestLog(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      logRequest(c.req.method, c.req.url, c.res.status, start, c.get("auth")?.account?.id ?? "-");
    }
  };
}
