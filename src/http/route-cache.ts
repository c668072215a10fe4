import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** How many paths are kept, and the longest kept (so kept paths stay within about 250 KB). */
const MAX_PATHS = 1000;
const MAX_PATH_LENGTH = 256;

/**
 * Hono's default router (Smart: RegExp, else Trie), with the answers for recently requested
 * paths kept. Gannet's routes make Hono fall back to its trie router (numeric `:id{[0-9]+}`
 * beside static names), whose search walks every pattern under a crowded prefix: about 1.9 µs
 * for `/api/v1/accounts/verify_credentials` against 0.4 µs for `/api/v1/instance`. A match
 * depends only on the method and the path, and the routes are fixed once the first request is
 * matched (Hono refuses later ones), so a kept answer is the one the router would give again.
 * Hono only reads match results (its own RegExp router hands out shared ones for static paths).
 * Bounded: all kept paths are forgotten at once when they reach 1,000.
 */
export class KeptMatchRouter<T> implements Router<T> {
  readonly name = "KeptMatchRouter";
  readonly #inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  readonly #kept = new Map<string, Map<string, Result<T>>>();
  #size = 0;
  #expand: ((method: string, path: string, result: Result<T>) => Result<T>) | undefined;

  add(method: string, path: string, handler: T): void {
    this.#forget();
    this.#inner.add(method, path, handler);
  }

  /**
   * Lets `expand` rewrite each answer before it is kept (lazy-area.ts puts a loaded area's own
   * matches in place of its prefix route); `forget` says when its rewriting changed (an area
   * loaded), so the answers kept until then are made again.
   */
  expandWith(expand: (method: string, path: string, result: Result<T>) => Result<T>): { forget: () => void } {
    this.#expand = expand;
    this.#forget();
    return { forget: () => this.#forget() };
  }

  match(method: string, path: string): Result<T> {
    const byPath = this.#kept.get(method);
    const kept = byPath?.get(path);
    if (kept !== undefined) return kept;
    const found = this.#inner.match(method, path);
    const result = this.#expand === undefined ? found : this.#expand(method, path, found);
    if (path.length <= MAX_PATH_LENGTH) {
      if (this.#size >= MAX_PATHS) this.#forget();
      let paths = this.#kept.get(method);
      if (paths === undefined) {
        paths = new Map();
        this.#kept.set(method, paths);
      }
      paths.set(path, result);
      this.#size++;
    }
    return result;
  }

  #forget(): void {
    this.#kept.clear();
    this.#size = 0;
  }
}
