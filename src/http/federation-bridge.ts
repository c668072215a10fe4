import type { MiddlewareHandler } from "hono";
import { inboxPrecheck, isInboxPost, isSignatureFailure, precheckedOwnerOf } from "../federation/inbox/precheck.ts";
import { withPrecheckedSigner } from "../federation/inbox/verified-skip.ts";
import { clientIpOf } from "./middleware/client-ip.ts";
import { outboxPageAlias } from "./outbox-page.ts";
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
    let request = outboxPageAlias(c.req.raw);
    if (isInboxPost(request.method, c.req.path)) {
      // What is unsigned, forged, from a blocked domain or out of shape is refused here, before
      // Fedify's JSON-LD processing (precheck.ts).
      const checked = await inboxPrecheck(ctx, request, () => ctx.federation());
      if (checked instanceof Response) {
        // Counted per client IP; past the limit, the IP's inbox POSTs are refused before routing (app.ts).
        if (isSignatureFailure(checked) && ctx.inboxThrottle.limit > 0) ctx.inboxThrottle.fail(clientIpOf(c));
        return checked;
      }
      request = checked;
    }
    const federation = await ctx.federation();
    const fetch = () =>
      federation.fetch(request, {
        contextData: ctx,
        onNotFound: fallThrough,
        onNotAcceptable: fallThrough,
      });
    // Signed by the activity's actor and verified by the precheck: not verified again (verified-skip.ts).
    const owner = precheckedOwnerOf(request);
    return owner === undefined ? fetch() : withPrecheckedSigner(owner, fetch);
  };
}
