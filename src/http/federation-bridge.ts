import type { MiddlewareHandler } from "hono";
import { inboxPrecheck, isInboxPost } from "../federation/inbox/precheck.ts";
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
    let request = c.req.raw;
    if (isInboxPost(request)) {
      // The body is read once here and the request handed on with it (a clone would copy the
      // stream into two); activities from blocked domains are refused before Fedify verifies
      // (and fetches) anything.
      const bytes = new Uint8Array(await request.arrayBuffer());
      request = new Request(request.url, { method: "POST", headers: request.headers, body: bytes });
      const refused = await inboxPrecheck(ctx, request, new TextDecoder().decode(bytes), () => ctx.federation());
      if (refused) return refused;
    }
    const federation = await ctx.federation();
    return federation.fetch(request, {
      contextData: ctx,
      onNotFound: fallThrough,
      onNotAcceptable: fallThrough,
    });
  };
}
