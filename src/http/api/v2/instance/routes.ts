import type { Context, Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";
import { type InstanceDocuments, jsonText, PUBLIC_CACHE } from "../../v1/instance/documents.ts";

/** `GET /api/v2/instance`: public, served from the per-app document cache. */
export function instanceV2Routes(app: Hono<HonoEnv>, docs: (c: Context<HonoEnv>) => InstanceDocuments): void {
  app.get("/api/v2/instance", async (c) => jsonText(c, await docs(c).v2.get(), PUBLIC_CACHE.instance));
}
