import type { Hono } from "hono";
import type { HonoEnv } from "../types.ts";
import { PLACEHOLDERS } from "./placeholders/index.ts";
import { registerPlaceholders } from "./placeholders/register.ts";

export { AREAS, BUILT_ELSEWHERE, NOT_SERVED, type OtherEndpoint, PLACEHOLDERS } from "./placeholders/index.ts";

/**
 * Mastodon-shaped answers for every endpoint not built yet: the right guard, then an empty list,
 * an entity with empty values, 404 for a record that cannot exist yet, or 422 for a write that
 * cannot work yet. Registered last, so a real route for the same method and path wins.
 */
export function placeholderRoutes(app: Hono<HonoEnv>): void {
  registerPlaceholders(app, PLACEHOLDERS);
}
