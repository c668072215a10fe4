import { type Context, Hono } from "hono";
import type { ParamIndexMap, Params, Result } from "hono/router";
import type { H, RouterRoute } from "hono/types";
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
/** Each loaded area's prefix handler, with the area's app and its handover middleware. */
const LOADED = new WeakMap<object, { sub: Hono<HonoEnv>; handover: object }>();
type HandoverEnv = HonoEnv["Bindings"] & { [HANDOVER]: Handover };
type Match = Result<[H, RouterRoute]>;
/** What an app's router keeps, for forgetting its kept matches when an area loads. */
const EXPANDING = new WeakMap<object, { forget: () => void }>();

/** A match's handlers with their parameters' values (the router's two forms of an answer made one). */
function withValues(result: Match): [[H, RouterRoute], Params][] {
  const stash = result[1];
  if (stash === undefined) return result[0] as [[H, RouterRoute], Params][];
  return (result[0] as [[H, RouterRoute], ParamIndexMap][]).map(([handler, indices]) => {
    const params: Params = {};
    for (const key of Object.keys(indices)) params[key] = stash[indices[key] as number] as string;
    return [handler, params];
  });
}

/**
 * An app's match with each loaded area's prefix route replaced by the area's own matching
 * handlers (none when the area has no route for the path, so it falls through as before): the
 * request is then answered in the app's own dispatch, without a second one in the area's app.
 * Areas not loaded yet keep their prefix route (its handler loads them); matches without a lazy
 * area are the router's own.
 */
function expandLoadedAreas(method: string, path: string, result: Match): Match {
  if (!result[0].some(([[handler]]) => LOADED.has(handler))) return result;
  const out: [[H, RouterRoute], Params][] = [];
  for (const entry of withValues(result)) {
    const loaded = LOADED.get(entry[0][0]);
    if (loaded === undefined) {
      out.push(entry);
      continue;
    }
    for (const own of withValues(loaded.sub.router.match(method, path))) {
      if (own[0][0] !== loaded.handover) out.push(own);
    }
  }
  return [out];
}

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
 * Once the area is loaded, the app's router (a KeptMatchRouter) answers its paths with the area's
 * own handlers in the prefix route's place (`expandLoadedAreas`), so a request is dispatched once,
 * in the app's context, as if the area had been registered at start-up; the handing over above is
 * then only for requests matched before the area was loaded.
 * `test/startup/lazy-areas.test.ts` checks that each area's routes lie under its prefixes.
 */
export function lazyArea(app: Hono<HonoEnv>, prefixes: readonly string[], load: () => Promise<AreaRoutes>): void {
  let area: Hono<HonoEnv> | undefined;
  let loading: Promise<Hono<HonoEnv>> | undefined;
  const router = app.router;
  if (router instanceof KeptMatchRouter && !EXPANDING.has(router)) {
    EXPANDING.set(router, (router as KeptMatchRouter<[H, RouterRoute]>).expandWith(expandLoadedAreas));
  }
  const build = async (): Promise<Hono<HonoEnv>> => {
    const routes = await load();
    const sub = new Hono<HonoEnv>({ strict: false, router: new KeptMatchRouter() });
    const handover: H = async (c, next) => {
      const { parent } = (c.env as HandoverEnv)[HANDOVER];
      for (const [key, value] of Object.entries(parent.var)) c.set(key as never, value as never);
      c.req.bodyCache = parent.req.bodyCache;
      try {
        await next();
      } finally {
        for (const [key, value] of Object.entries(c.var)) parent.set(key as never, value as never);
      }
    };
    sub.use(handover);
    routes(sub);
    sub.notFound((c) => {
      (c.env as HandoverEnv)[HANDOVER].missed = true;
      return c.body(null, 404);
    });
    sub.onError((error) => {
      throw error;
    });
    area = sub;
    // From now on the app's router answers the area's paths with the area's own handlers.
    LOADED.set(handler, { sub, handover });
    EXPANDING.get(router)?.forget();
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
