import type { Hono } from "hono";
import { serveBlob } from "../../infra/blobs/serve.ts";
import { MISSING_AVATAR, MISSING_HEADER } from "../../serializers/account.ts";
import type { HonoEnv } from "../types.ts";
import { defaultImage } from "./default-images.ts";

/** Files from the blob store (`/system/...`) and the default images. */
export function staticRoutes(app: Hono<HonoEnv>): void {
  app.get("/system/*", async (c) => {
    let key: string;
    try {
      key = decodeURIComponent(c.req.path.slice("/system/".length));
    } catch {
      return c.json({ error: "Record not found" }, 404);
    }
    // Account archives are private: only their owner's download route serves them.
    if (key.startsWith("backups/")) return c.json({ error: "Record not found" }, 404);
    const res = await serveBlob(c.env.ctx.blobs, key, c.req.header("range"));
    if (!res) return c.json({ error: "Record not found" }, 404);
    return c.body(res.body as ReadableStream | Uint8Array<ArrayBuffer>, res.status, res.headers);
  });
  for (const [path, kind] of [
    [MISSING_AVATAR, "avatar"],
    [MISSING_HEADER, "header"],
  ] as const) {
    app.get(path, async (c) =>
      c.body(new Uint8Array(await defaultImage(kind)), 200, {
        "Content-Type": "image/png",
        "Cache-Control": "public, max-age=86400",
        // Browser clients load images with `crossorigin` (to draw them on a canvas, for colours).
        "Access-Control-Allow-Origin": "*",
      }),
    );
  }
  app.get("/health", (c) => c.text("OK"));
}
