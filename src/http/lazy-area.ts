import { type Context, Hono } from "hono";
import type { RouterRoute } from "hono/types";
import { KeptMatchRouter } from "./route-cache.ts";
import type { HonoEnv } from "./types.ts";

/** What an area exports: a function adding its routes to an app. */
export type AreaRoutes = (app: Hono<HonoEnv>) => void;

/** Handed from the app's context to the area's through the request's env. */
interface Handover {
  parent: Context<HonoEnv>;
  missed: boolean;
}

const HANDOVER = Symbol("lazy area handover");
/** Each lazy area's prefix handler, with how to get the area's app (for `withLazyRoutes`). */
const AREAS = new WeakMap<object, () => Promise<Hono<HonoEnv>>>();
type HandoverEnv = HonoEnv["Bindings"] & { [HANDOVER]: Handover };

/**
 * Registers an area whose modules are imported on its first request instead of at start-up
 * (docs/performance.md, "Cold start"). In the area's place among the routes, every path under
 * `prefixes` (`/admin` covers `/admin` and `/admin/...`) goes to a handler that loads the area
 * into an app of its own (once) and hands the request to it. Transparent to the rest:
 * - the middleware before it has run as for any route (IP access, body limits, CORS, auth);
 *   the variables it set are the area's, and the area's go back (the request log reads `auth`);
 *   a body already read is shared (Hono's body cache);
 * - headers set before (`c.header`) are kept under the area's own, as when the area's handler
 *   answers in the same context;
 * - a path the area has no route for falls through to the routes after it, as it did, and so to
 *   the app's 404;
 * - an error thrown by the area reaches the app's error handler.
 * Routes are all added before the first match, in the app and in the area's app alike.
 * `test/startup/lazy-areas.test.ts` checks that each area's routes lie under its prefixes.
 */
export function lazyArea(app: Hono<HonoEnv>, prefixes: readonly string[], load: () => Promise<AreaRoutes>): void {
  let area: Hono<HonoEnv> | undefined;
  let loading: Promise<Hono<HonoEnv>> | undefined;
  const build = async (): Promise<Hono<HonoEnv>> => {
    const routes = await load();
    const sub = new Hono<HonoEnv>({ strict: false, router: new KeptMatchRouter() });
    sub.use(async (c, next) => {
      const { parent } = (c.env as HandoverEnv)[HANDOVER];
      for (const [key, value] of Object.entries(parent.var)) c.set(key as never, value as never);
      c.req.bodyCache = parent.req.bodyCache;
      try {
        await next();
      } finally {
        for (const [key, value] of Object.entries(c.var)) parent.set(key as never, value as never);
      }
    });
    routes(sub);
    sub.notFound((c) => {
      (c.env as HandoverEnv)[HANDOVER].missed = true;
      return c.body(null, 404);
    });
    sub.onError((error) => {
      throw error;
    });
    area = sub;
    return sub;
  };
  const handler = async (c: Context<HonoEnv>, next: () => Promise<void>) => {
    const sub = area ?? (await (loading ??= build()));
    const handover: Handover = { parent: c, missed: false };
    const env = { ...c.env, [HANDOVER]: handover } as HandoverEnv;
    const res = await sub.fetch(c.req.raw, env);
    if (handover.missed) {
      await next();
      return;
    }
    return c.newResponse(res.body, res);
  };
  AREAS.set(handler, () => (area ? Promise.resolve(area) : (loading ??= build())));
  for (const prefix of prefixes) app.all(`${prefix}/*`, handler);
}

/**
 * `routes` (an app's `app.routes`) with each lazy area's prefix routes replaced by the area's
 * own routes, loading it: the routes as they were when every area was registered at start-up,
 * in the same order (the OpenAPI document is built from them).
 */
export async function withLazyRoutes(routes: readonly RouterRoute[]): Promise<RouterRoute[]> {
  const out: RouterRoute[] = [];
  const expanded = new Set<object>();
  for (const route of routes) {
    const area = AREAS.get(route.handler);
    if (area === undefined) {
      out.push(route);
      continue;
    }
    if (expanded.has(route.handler)) continue;
    expanded.add(route.handler);
    // The area's app begins with the handover middleware, which is not one of its routes.
    out.push(...(await area()).routes.slice(1));
  }
  return out;
}
