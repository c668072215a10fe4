import type { MiddlewareHandler } from "hono";
import { ipAccessDenied } from "../../services/moderation/ip-blocks.ts";
import type { HonoEnv } from "../types.ts";
import { clientIpOf } from "./client-ip.ts";

/**
 * Refuses every request from a range an IP block with the `no_access` severity covers (web pages,
 * API, OAuth, media, federation), with the 403 Mastodon's Rack::Attack blocklist answers. The
 * client's address is the one `clientIpOf` works out (X-Forwarded-For behind a trusted proxy);
 * it is not even worked out while no such block exists.
 */
export const ipAccess: MiddlewareHandler<HonoEnv> = async (c, next) => {
  const denied = ipAccessDenied(c.env.ctx, () => clientIpOf(c));
  if (denied === true || (denied !== false && (await denied))) {
    return c.text("Forbidden\n", 403);
  }
  await next();
};
