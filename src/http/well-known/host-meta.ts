import type { Context, Hono } from "hono";
import type { HonoEnv } from "../types.ts";

const xmlAttr = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Whether the client asked for the JSON (JRD) form rather than XRD. */
function wantsJson(c: Context<HonoEnv>): boolean {
  const format = c.req.query("format");
  if (format !== undefined) return format === "json";
  const accept = c.req.header("accept") ?? "";
  return /application\/(jrd\+)?json/.test(accept) && !/application\/xrd\+xml/.test(accept);
}

/** `/.well-known/host-meta` (RFC 6415): points clients at the WebFinger endpoint. */
export function hostMetaRoutes(app: Hono<HonoEnv>): void {
  app.get("/.well-known/host-meta", (c) => {
    const template = `${c.env.ctx.config.baseUrl}/.well-known/webfinger?resource={uri}`;
    const headers = { "Cache-Control": "public, max-age=259200", Vary: "Accept" };
    if (wantsJson(c)) {
      return c.body(JSON.stringify({ links: [{ rel: "lrdd", template }] }), 200, {
        ...headers,
        "Content-Type": "application/json; charset=utf-8",
      });
    }
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">',
      `  <Link rel="lrdd" template="${xmlAttr(template)}"/>`,
      "</XRD>",
      "",
    ].join("\n");
    return c.body(xml, 200, { ...headers, "Content-Type": "application/xrd+xml; charset=utf-8" });
  });
}
