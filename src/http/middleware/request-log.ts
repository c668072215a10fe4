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

/**
 * LOG_REQUESTS: one info line per request once its answer is ready (a stream's body may go on):
 * `GET /api/v1/timelines/home 200 4.2ms 1234`, the last field the signed-in account's id or `-`.
 * Registered only when the setting is on, so it costs nothing otherwise. The Authorization header
 * and the query are never logged.
 */
export function requestLog(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const ms = (performance.now() - start).toFixed(1);
      const who = c.get("auth")?.account?.id ?? "-";
      const line = `${c.req.method} ${loggedPath(c.req.url)} ${c.res.status} ${ms}ms ${who}`;
      // LogTape reads `{name}` in a message as a placeholder; `{{` is a literal brace.
      logger.info(line.replace(/[{}]/g, (b) => b + b));
    }
  };
}
