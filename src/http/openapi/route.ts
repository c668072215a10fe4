import type { Hono } from "hono";
import { withLazyRoutes } from "../lazy-area.ts";
import type { HonoEnv } from "../types.ts";

/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 description of this app's routes, built on the first
 * request (every route is registered by then) and kept in memory; public, CORS as all of /api.
 * The generator (route descriptions, entity schemas) is loaded then too, so a server whose
 * document nobody asks for does not carry it in memory.
 */
export function openapiRoutes(app: Hono<HonoEnv>): void {
  let body: string | undefined;
  app.get("/api/openapi.json", async (c) => {
    if (body === undefined) {
      const { buildDocument } = await import("./document.ts");
      // The areas loaded on first request are loaded now, so that their routes are described.
      const routes = await withLazyRoutes(app.routes);
      body = JSON.stringify(buildDocument(routes, { serverUrl: c.env.ctx.config.baseUrl }).document);
    }
    return c.body(body, 200, {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    });
  });
}
