import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Hono } from "hono";
import { sha256 } from "../../lib/crypto.ts";
import type { HonoEnv } from "../types.ts";
import { adminAccountsCss } from "./assets/admin-accounts-css.ts";
import { adminCss } from "./assets/admin-css.ts";
import { adminDashboardCss } from "./assets/admin-dashboard-css.ts";
import { adminFederationCss } from "./assets/admin-federation-css.ts";
import { adminReportsCss } from "./assets/admin-reports-css.ts";
import { adminServerCss } from "./assets/admin-server-css.ts";
import { authCss } from "./assets/auth-css.ts";
import { baseCss } from "./assets/base-css.ts";
import { clientActionsJs } from "./assets/client-actions-js.ts";
import { clientComposeCss } from "./assets/client-compose-css.ts";
import { clientComposeJs } from "./assets/client-compose-js.ts";
import { clientCoreJs } from "./assets/client-core-js.ts";
import { clientCss } from "./assets/client-css.ts";
import { clientPagesCss } from "./assets/client-pages-css.ts";
import { clientPagesJs } from "./assets/client-pages-js.ts";
import { clientRenderJs } from "./assets/client-render-js.ts";
import { clientTimelinesCss } from "./assets/client-timelines-css.ts";
import { clientTimelinesJs } from "./assets/client-timelines-js.ts";
import { dataCss } from "./assets/data-css.ts";
import { dataRefreshJs } from "./assets/data-refresh-js.ts";
import { feedsCss } from "./assets/feeds-css.ts";
import { profileJs } from "./assets/profile-js.ts";
import { profilesCss } from "./assets/profiles-css.ts";
import { securityCss } from "./assets/security-css.ts";
import { settingsCss } from "./assets/settings-css.ts";
import { siteCss } from "./assets/site-css.ts";
import { webauthnJs } from "./assets/webauthn-js.ts";

/**
 * The web side's static files: one stylesheet and a few small scripts, kept in TypeScript modules
 * (the build copies only .ts files) and served from memory at `/assets/NAME?v=HASH`. A URL with
 * the current hash is cached for a year; pages always link the current one.
 */
interface Asset {
  type: string;
  body: string;
  hash: string;
}

const CSS_PARTS: string[] = [
  baseCss,
  siteCss,
  profilesCss,
  feedsCss,
  settingsCss,
  dataCss,
  securityCss,
  authCss,
  adminCss,
  adminDashboardCss,
  adminReportsCss,
  adminAccountsCss,
  adminFederationCss,
  adminServerCss,
  clientCss,
  clientTimelinesCss,
  clientPagesCss,
  clientComposeCss,
];
/** Scripts by file name; areas add theirs here (each a module under assets/). */
const SCRIPTS: Record<string, string> = {
  "profile.js": profileJs,
  "data-refresh.js": dataRefreshJs,
  "webauthn.js": webauthnJs,
  "client-render.js": clientRenderJs,
  "client-core.js": clientCoreJs,
  "client-timelines.js": clientTimelinesJs,
  "client-pages.js": clientPagesJs,
  "client-compose.js": clientComposeJs,
  "client-actions.js": clientActionsJs,
};

const assets = new Map<string, Asset>();
function add(name: string, type: string, body: string): void {
  assets.set(name, { type, body, hash: sha256(body).slice(0, 12) });
}
add("gannet.css", "text/css; charset=utf-8", CSS_PARTS.join(""));
for (const [name, body] of Object.entries(SCRIPTS)) add(name, "text/javascript; charset=utf-8", body);

/** Adds a script served from a file of an installed package (read once, at start). */
export function addPackageScript(name: string, body: string): void {
  add(name, "text/javascript; charset=utf-8", body);
}

// @simplewebauthn/browser's UMD bundle (global SimpleWebAuthnBrowser), for webauthn.js.
addPackageScript(
  "simplewebauthn-browser.js",
  readFileSync(
    join(dirname(createRequire(import.meta.url).resolve("@simplewebauthn/browser")), "../dist/bundle/index.umd.min.js"),
    "utf8",
  ),
);

/** The URL of an asset, with its content hash so browsers may cache it for long. */
export function assetUrl(name: string): string {
  const a = assets.get(name);
  if (!a) throw new Error(`unknown asset ${name}`);
  return `/assets/${name}?v=${a.hash}`;
}

export function assetRoutes(app: Hono<HonoEnv>): void {
  app.get("/assets/:name", (c) => {
    const a = assets.get(c.req.param("name"));
    if (!a) return c.json({ error: "Record not found" }, 404);
    const current = c.req.query("v") === a.hash;
    return c.body(a.body, 200, {
      "Content-Type": a.type,
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
      ETag: `"${a.hash}"`,
      "X-Content-Type-Options": "nosniff",
    });
  });
}
