import { Hono, type MiddlewareHandler } from "hono";
import type { AppContext } from "../context.ts";
import { throttledRefusal } from "../federation/inbox/failure-throttle.ts";
import {
  isInboxPostRequest,
  isSignatureFailure,
  mayPrecheckBeforeRouting,
  precheckBeforeRouting,
  unsignedRefusal,
} from "../federation/inbox/precheck.ts";
import { inboxThreadsOf } from "../inbox-threads/pool.ts";
import { withGuardedFetch } from "../lib/net/scoped-fetch.ts";
import { ipAccessDenied } from "../services/moderation/ip-blocks.ts";
import { placeholderRoutes } from "./api/placeholders.ts";
import { accountRoutes } from "./api/v1/accounts/routes.ts";
import { conversationRoutes } from "./api/v1/conversations/routes.ts";
import { cryptoRoutes } from "./api/v1/crypto/routes.ts";
import { customEmojiRoutes } from "./api/v1/custom-emojis/routes.ts";
import { endorsementRoutes } from "./api/v1/endorsements/routes.ts";
import { followRoutes } from "./api/v1/follows/routes.ts";
import { instanceRoutes } from "./api/v1/instance/routes.ts";
import { listRoutes } from "./api/v1/lists/routes.ts";
import { markerRoutes } from "./api/v1/markers/routes.ts";
import { mediaRoutes } from "./api/v1/media/routes.ts";
import { notificationRoutes } from "./api/v1/notifications/routes.ts";
import { pollRoutes } from "./api/v1/polls/routes.ts";
import { relationshipRoutes } from "./api/v1/relationships/routes.ts";
import { statusRoutes } from "./api/v1/statuses/routes.ts";
import { suggestionRoutes } from "./api/v1/suggestions/routes.ts";
import { tagRoutes } from "./api/v1/tags/routes.ts";
import { timelineRoutes } from "./api/v1/timelines/routes.ts";
import { translationRoutes } from "./api/v1/translation/routes.ts";
import { trendRoutes } from "./api/v1/trends/routes.ts";
import { groupedNotificationRoutes } from "./api/v2/notifications/routes.ts";
import { searchRoutes } from "./api/v2/search/routes.ts";
import { federationBridge } from "./federation-bridge.ts";
import { lazyArea } from "./lazy-area.ts";
import { authenticate, authenticateMiddleware, TokenCache } from "./middleware/auth.ts";
import { limitBody } from "./middleware/body-limit.ts";
import { clientIpOfRequest } from "./middleware/client-ip.ts";
import { applyCors } from "./middleware/cors.ts";
import { onError, onNotFound } from "./middleware/errors.ts";
import { ipAccess } from "./middleware/ip-access.ts";
import type { LoadShedder } from "./middleware/overload.ts";
import { checkApiRateLimit } from "./middleware/rate-limit.ts";
import { logRequest, requestLog } from "./middleware/request-log.ts";
import { oauthRoutes } from "./oauth/routes.ts";
import { openapiRoutes } from "./openapi/route.ts";
import { nulError } from "./params.ts";
import { KeptMatchRouter } from "./route-cache.ts";
import { streamingRoutes } from "./streaming/routes.ts";
import type { HonoEnv } from "./types.ts";
import { mediaProxyRoutes } from "./web/media-proxy.ts";
import { webRoutes } from "./web/routes.ts";
import { staticRoutes } from "./web/static.ts";

const MiB = 1024 * 1024;
const MEDIA_UPLOAD = /^\/api\/v[12]\/media\/?$/;

/**
 * The API areas loaded on their first request (lazy-area.ts), each with the paths it answers
 * under (test/startup/lazy-areas.test.ts checks that all its routes lie there). Only areas off
 * the hot paths: an area's first request waits for its import (once loaded, its requests are
 * dispatched in this app's own routes, lazy-area.ts).
 */
export const LAZY_API_AREAS = {
  announcements: ["/api/v1/announcements"],
  push: ["/api/v1/push"],
  scheduledStatuses: ["/api/v1/scheduled_statuses"],
  reports: ["/api/v1/reports"],
  admin: ["/api/v1/admin", "/api/v2/admin"],
  filters: ["/api/v2/filters", "/api/v1/filters"],
  v1Filters: ["/api/v1/filters"],
} as const;

/** CORS for paths outside `/api` that browsers read (OAuth token endpoints, discovery). */
const corsOnly: MiddlewareHandler<HonoEnv> = async (c, next) => {
  const preflight = applyCors(c);
  if (preflight) return preflight;
  await next();
};

/**
 * Assembles the HTTP application: middleware, then one route module per area. Requests must be
 * handed the context as `env.ctx` (`handlerFor` does that). `logRequests` (LOG_REQUESTS) puts the
 * request log outermost, so it sees every answer Hono gives.
 */
export function createApp(opts: { logRequests?: boolean } = {}): Hono<HonoEnv> {
  const app = new Hono<HonoEnv>({ strict: false, router: new KeptMatchRouter() });
  app.onError(onError);
  app.notFound(onNotFound);
  if (opts.logRequests) app.use(requestLog());
  // IP blocks with the `no_access` severity refuse a request before anything else looks at it.
  app.use(ipAccess);
  const tokens = new TokenCache();

  // Everything under /api goes through one middleware (each layer costs on the hottest paths):
  // CORS for browsers, a bounded body (20 MiB; media uploads 100 MiB), the token, the rate limits.
  const apiBody = limitBody(20 * MiB);
  // Media uploads take videos up to 99 MiB, plus room for the multipart envelope.
  const uploadBody = limitBody(100 * MiB);
  app.use("/api/*", async (c, next) => {
    const preflight = applyCors(c);
    if (preflight) return preflight;
    // A NUL in the path or query (`%00`) reaches SQL through params read anywhere; refuse it here.
    if (c.req.url.includes("%00")) throw nulError();
    await authenticate(c, tokens);
    await checkApiRateLimit(c);
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return (c.req.method === "POST" && MEDIA_UPLOAD.test(c.req.path) ? uploadBody : apiBody)(c, next);
  });

  for (const p of ["/oauth/token", "/oauth/revoke", "/oauth/userinfo", "/.well-known/*", "/nodeinfo/*"]) {
    app.use(p, corsOnly);
  }
  app.use("/oauth/*", limitBody(MiB));
  app.use("/auth/*", limitBody(MiB));
  app.use("/oauth/userinfo", authenticateMiddleware(tokens));
  app.use("/severed_relationships/*", authenticateMiddleware(tokens));

  // Fedify answers WebFinger and ActivityPub requests; everything else falls through.
  // Activities are small (Mastodon's largest are a few KB); the inbox reads the body before it
  // checks the signature, so an unsigned sender could otherwise make it hold any amount.
  app.use("/inbox", limitBody(MiB));
  app.use("/users/*", limitBody(MiB));
  app.use("/.well-known/webfinger", federationBridge());
  app.use("/users/*", federationBridge());
  app.use("/inbox", federationBridge());
  app.use("/actor", federationBridge());

  oauthRoutes(app);
  accountRoutes(app);
  instanceRoutes(app);
  statusRoutes(app);
  mediaRoutes(app);
  notificationRoutes(app);
  relationshipRoutes(app);
  followRoutes(app);
  groupedNotificationRoutes(app);
  conversationRoutes(app);
  markerRoutes(app);
  lazyArea(app, LAZY_API_AREAS.push, async () => (await import("./api/v1/push/routes.ts")).pushRoutes);
  lazyArea(
    app,
    LAZY_API_AREAS.announcements,
    async () => (await import("./api/v1/announcements/routes.ts")).announcementRoutes,
  );
  timelineRoutes(app);
  customEmojiRoutes(app);
  pollRoutes(app);
  lazyArea(
    app,
    LAZY_API_AREAS.scheduledStatuses,
    async () => (await import("./api/v1/scheduled-statuses/routes.ts")).scheduledStatusRoutes,
  );
  searchRoutes(app);
  listRoutes(app);
  lazyArea(app, LAZY_API_AREAS.reports, async () => (await import("./api/v1/reports/routes.ts")).reportRoutes);
  lazyArea(app, LAZY_API_AREAS.admin, async () => (await import("./api/v1/admin/index.ts")).adminRoutes);
  tagRoutes(app);
  endorsementRoutes(app);
  suggestionRoutes(app);
  trendRoutes(app);
  translationRoutes(app);
  cryptoRoutes(app);
  lazyArea(app, LAZY_API_AREAS.filters, async () => (await import("./api/v2/filters/routes.ts")).filterRoutes);
  lazyArea(app, LAZY_API_AREAS.v1Filters, async () => (await import("./api/v1/filters/routes.ts")).v1FilterRoutes);
  streamingRoutes(app);
  webRoutes(app);
  staticRoutes(app);
  mediaProxyRoutes(app);
  openapiRoutes(app);
  // Last: Mastodon-shaped empty answers for endpoints no issue has built yet.
  placeholderRoutes(app);
  return app;
}

/**
 * A fetch handler serving `app` with `ctx`, for node-server (whose env carries incoming/outgoing).
 * With `inbox` (an app that has the inboxes: not the streaming-only one), an unsigned inbox POST
 * is refused before Hono's routing and middleware (precheck.ts says why), and so is any inbox POST
 * from a client IP throttled for failed signatures (failure-throttle.ts), and a signed one whose
 * signature does not verify (`precheckBeforeRouting`; while no IP block applies to its address). With `shedder`, every
 * request first passes its admission check (overload.ts).
 */
export function handlerFor(
  app: Hono<HonoEnv>,
  ctx: AppContext,
  opts: { inbox?: boolean; shedder?: LoadShedder } = {},
): (request: Request, env?: object) => Response | Promise<Response> {
  const handler = inboxPrecheckedHandler(app, ctx, opts.inbox !== false);
  // Outermost: while overloaded, a request is refused before anything else looks at it.
  const shedder = opts.shedder;
  if (shedder === undefined) return handler;
  return (request, env) => shedder.admit(request, env, handler);
}

function inboxPrecheckedHandler(
  app: Hono<HonoEnv>,
  ctx: AppContext,
  inbox: boolean,
): (request: Request, env?: object) => Response | Promise<Response> {
  // Fedify's own fetches made while serving (WebFinger, deliveries) obey the address policy.
  const serve = (request: Request, env?: object) =>
    withGuardedFetch(ctx.guardedFetch, () => app.fetch(request, { ...env, ctx }));
  if (!inbox) return serve;
  // An unsigned inbox POST is refused before routing and middleware (precheck.ts), and so is any
  // inbox POST from an address whose signatures kept failing (failure-throttle.ts).
  const throttle = ctx.inboxThrottle;
  const trusted = ctx.config.trustedProxies;
  const logRequests = ctx.config.logRequests;
  return (request, env) => {
    if (!isInboxPostRequest(request)) return serve(request, env);
    const start = logRequests ? performance.now() : 0;
    const refusal =
      unsignedRefusal(request) ??
      (throttle.limit > 0 ? throttledRefusal(throttle, clientIpOfRequest(request, env, trusted), request) : undefined);
    if (refusal === undefined) {
      // A signed one has its signature checked here too (precheck.ts), unless an IP block may apply.
      if (!mayPrecheckBeforeRouting(request)) return serve(request, env);
      const ip = () => clientIpOfRequest(request, env, trusted);
      if (ipAccessDenied(ctx, ip) !== false) return serve(request, env);
      const threads = inboxThreadsOf(ctx);
      if (threads?.available) {
        // Processed by an inbox thread, its signature checked there (inbox-threads/pool.ts).
        return threads.handle(request, ip()).then(({ response, signatureFailure }) => {
          if (signatureFailure && throttle.limit > 0) throttle.fail(ip());
          if (logRequests) logRequest(request.method, request.url, response.status, start, "-");
          return response;
        });
      }
      return withGuardedFetch(ctx.guardedFetch, () => precheckBeforeRouting(ctx, request, () => ctx.federation())).then(
        (early) => {
          if (early === undefined) return serve(request, env);
          if (isSignatureFailure(early) && throttle.limit > 0) throttle.fail(ip());
          if (logRequests) logRequest(request.method, request.url, early.status, start, "-");
          return early;
        },
      );
    }
    // Refused before the application's request log sees it.
    if (logRequests) logRequest(request.method, request.url, refusal.status, start, "-");
    return refusal;
  };
}
