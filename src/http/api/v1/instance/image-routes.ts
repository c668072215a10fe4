import type { Context, Hono } from "hono";
import { BANNER_2X_PATH, BANNER_PATH, ICON_SIZES, iconPath } from "../../../../services/instance/default-images.ts";
import type { HonoEnv } from "../../../types.ts";
import { type InstanceDocuments, PUBLIC_CACHE } from "./documents.ts";

const png = (c: Context<HonoEnv>, data: Buffer) =>
  c.body(new Uint8Array(data), 200, { "Content-Type": "image/png", "Cache-Control": PUBLIC_CACHE.static });

/** The default server banner and app icons, rendered once per process. */
export function instanceImageRoutes(app: Hono<HonoEnv>, docs: (c: Context<HonoEnv>) => InstanceDocuments): void {
  app.get(BANNER_PATH, async (c) => png(c, await docs(c).images.banner(1)));
  app.get(BANNER_2X_PATH, async (c) => png(c, await docs(c).images.banner(2)));
  for (const size of ICON_SIZES) {
    app.get(iconPath(size), async (c) => png(c, await docs(c).images.icon(size)));
  }
}
