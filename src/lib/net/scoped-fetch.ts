import { AsyncLocalStorage } from "node:async_hooks";
import type { GuardedFetch } from "./guarded-fetch.ts";

/**
 * Fedify sends deliveries, and its WebFinger and NodeInfo requests, with the global `fetch`: it
 * takes no client of ours there. Within `withGuardedFetch` (every request Gannet serves and every
 * job it runs), the global `fetch` is the guarded client instead, so those requests obey
 * ALLOWED_PRIVATE_ADDRESSES exactly as Gannet's own do (checked at connect time, redirects
 * checked again, bounded in time and size). Outside a scope (test code, start-up) `fetch` is the
 * platform's. The scope carries the context's client, so servers in one process keep apart.
 */
const scope = new AsyncLocalStorage<GuardedFetch | undefined>();
let platformFetch: typeof fetch | undefined;

function install(): void {
  if (platformFetch) return;
  const plain = globalThis.fetch;
  platformFetch = plain;
  const scoped = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const guarded = scope.getStore();
    return guarded ? viaGuarded(guarded, input, init) : plain(input, init);
  };
  globalThis.fetch = Object.assign(scoped, plain) as typeof fetch;
}

/** Runs `f` with the global `fetch` going through `guarded` (none given: the platform's). */
export function withGuardedFetch<T>(guarded: GuardedFetch | undefined, f: () => T): T {
  install();
  return scope.run(guarded, f);
}

async function viaGuarded(guarded: GuardedFetch, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const body = request.body ? await request.arrayBuffer() : undefined;
  return guarded(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    redirect: request.redirect,
    signal: request.signal,
  });
}
