import type { Context, Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import type { ClientUser } from "./layout.ts";

/** The web client's compose routes (docs/web-client.md). */
export function clientComposeRoutes(_app: Hono<HonoEnv>): void {}

/** The compose box beside every client page (its script: assets/client-compose-js.ts). */
export function composeBox(_c: Context<HonoEnv>, _me: ClientUser): SafeHtml {
  return html``;
}
