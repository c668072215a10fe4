import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Marks work done for no waiting client (background jobs, periodic tasks), so that what is shared
 * with requests (SQLite's one connection) serves requests first. A process-wide marker rather
 * than something on AppContext: it is the async call chain, not the context, that is background.
 */
const background = new AsyncLocalStorage<true>();

/** Runs `fn` (and everything it starts) as background work. */
export function runInBackground<T>(fn: () => T): T {
  return background.run(true, fn);
}

/** Whether the caller runs as background work. */
export function inBackground(): boolean {
  return background.getStore() === true;
}
