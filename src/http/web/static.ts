import type { Hono } from "hono";
import { serveBlob } from "../../infra/blobs/serve.ts";
import { sharpOf } from "../../lib/sharp.ts";
import { MISSING_AVATAR, MISSING_HEADER } from "../../serializers/account.ts";
import type { HonoEnv } from "../types.ts";

/** Files from the blob store (`/system/...`) and the default images. */
export function staticRoutes(app: Hono<HonoEnv>): void {
  // A plain grey square for accounts without an avatar or header, made on first use.
  let missingPng: Promise<Buffer> | undefined;
  const missingImage = (): Promise<Buffer> =>
    (missingPng ??= sharpOf({ create: { width: 120, height: 120, channels: 3, background: "#9baec8" } }).then((image) =>
      image.png().toBuffer(),
    ));

  app.get("/system/*", async (c) => {
    let key: string;
    try {
      key = decodeURIComponent(c.req.path.slice("/system/".length));
    } catch {
      return c.json({ error: "Record not found" }, 404);
    }
    const res = await serveBlob(c.env.ctx.blobs, key, c.req.header("range"));
    if (!res) return c.json({ error: "Record not found" }, 404);
    return c.body(res.body as ReadableStream | Uint8Array<ArrayBuffer>, res.status, res.headers);
  });
  for (const path of [MISSING_AVATAR, MISSING_HEADER]) {
    app.get(path, async (c) =>
      c.body(new Uint8Array(await missingImage()), 200, {
        "Content-Type": "image/png",
        "Cache-Control": "public, max-age=86400",
      }),
    );
  }
  app.get("/health", (c) => c.text("OK"));
}
