import type { Hono } from "hono";
import type { HonoEnv } from "../types.ts";
import { buildDocument } from "./document.ts";

/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 description of this app's routes, built on the first
 * request (every route is registered by then) and kept in memory; public, CORS as all of /api.
 */
export function openapiRoutes(app: Hono<HonoEnv>): void {
  let body: string | undefined;
  app.get("/api/openapi.json", (c) => {
    body ??= JSON.stringify(buildDocument(app.routes, { serverUrl: c.env.ctx.config.baseUrl }).document);
    return c.body(body, 200, {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    });
  });
}
