import type { MiddlewareHandler } from "hono";
import { inboxPrecheck } from "../federation/inbox/precheck.ts";
import type { HonoEnv } from "./types.ts";

/**
 * Hands a request to Fedify (WebFinger, actors and later inboxes and collections). When Fedify
 * has no route for it, or the client did not ask for ActivityPub, the request goes on to Hono.
 */
export function federationBridge(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const ctx = c.env.ctx;
    const fallThrough = async (): Promise<Response> => {
      await next();
      return c.res;
    };
    // Activities from blocked domains are refused before Fedify verifies (and fetches) anything.
    const refused = await inboxPrecheck(ctx, c.req.raw, () => ctx.federation());
    if (refused) return refused;
    const federation = await ctx.federation();
    return federation.fetch(c.req.raw, {
      contextData: ctx,
      onNotFound: fallThrough,
      onNotAcceptable: fallThrough,
    });
  };
}
