import type { Hono } from "hono";
import { createDefaultImages, ICON_SIZES, iconPath } from "../../../services/instance/default-images.ts";
import { loadSiteInfo } from "../../../services/instance/site-settings.ts";
import type { HonoEnv } from "../../types.ts";

/** Paths crawlers should leave alone: private pages and the API. */
const ROBOTS_DISALLOW = [
  "/settings",
  "/filters",
  "/auth",
  "/oauth",
  "/api",
  "/admin",
  "/authorize_interaction",
  "/remote_interaction",
];
const ROBOTS = `User-agent: *\n${ROBOTS_DISALLOW.map((p) => `Disallow: ${p}\n`).join("")}Allow: /\n`;

const ICO_SIZE = 48;

/**
 * An ICO file holding one PNG image (Windows Vista's PNG-in-ICO, read by every current browser):
 * a 6-byte header, one 16-byte directory entry, then the PNG.
 */
export function pngToIco(png: Buffer, size: number): Buffer {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(size >= 256 ? 0 : size, 6); // width (0 means 256)
  head.writeUInt8(size >= 256 ? 0 : size, 7); // height
  head.writeUInt8(0, 8); // no palette
  head.writeUInt8(0, 9); // reserved
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(22, 18); // offset of the image
  return Buffer.concat([head, png]);
}

let favicon: Promise<Buffer> | undefined;
function faviconBytes(): Promise<Buffer> {
  favicon ??= createDefaultImages()
    .icon(ICO_SIZE)
    .then((png) => pngToIco(png, ICO_SIZE))
    .catch((e: unknown) => {
      favicon = undefined;
      throw e;
    });
  return favicon;
}

/** `/robots.txt`, `/favicon.ico` (the default icon, cached for a week) and the web app manifest. */
export function siteFileRoutes(app: Hono<HonoEnv>): void {
  app.get("/robots.txt", (c) =>
    c.body(ROBOTS, 200, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" }),
  );

  app.get("/favicon.ico", async (c) =>
    c.body(new Uint8Array(await faviconBytes()), 200, {
      "Content-Type": "image/x-icon",
      "Cache-Control": "public, max-age=604800",
    }),
  );

  app.get("/manifest.json", async (c) => {
    const site = await loadSiteInfo(c.env.ctx);
    const manifest = {
      id: "/",
      name: site.title,
      short_name: site.title.length <= 12 ? site.title : site.title.slice(0, 12).trimEnd(),
      description: site.shortDescription,
      icons: ICON_SIZES.map((s) => ({ src: iconPath(s), sizes: `${s}x${s}`, type: "image/png", purpose: "any" })),
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: "#4141b8",
      background_color: "#f3f3f7",
    };
    return c.body(JSON.stringify(manifest), 200, {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "public, max-age=180",
    });
  });
}
