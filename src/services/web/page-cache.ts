import type { AppContext } from "../../context.ts";
import { Bounded, keptFor } from "../statuses/kept.ts";
import type { WebStatus } from "./entities.ts";

/**
 * Public pages as rendered for anonymous readers (profiles, posts), kept between requests and
 * checked against the change log the kept status renders use (statuses/kept.ts): an entry names
 * what it was made from (`s` + status id, `a` + account id, `v` + account id for pins and
 * boosts), and is used only while the log names none of them since it was made. A new post by
 * the account changes its post count (`a`), a reply changes its parent's reply count (`s`), a
 * suspension or an emoji change drops everything, whichever process made the change. The
 * site's title is not in the log: it is read again for every use and compared. Poll tallies are
 * not in the log either, so a page showing a poll is not kept. Nothing is keyed on time, so an
 * entry is never stale; at worst it is made again.
 */
export interface PageDeps {
  /** Change-log keys: kind then id (`s123`, `a45`, `v45`). */
  keys: string[];
  /** Whether the page shows a poll (then it is not kept: live tallies). */
  hasPoll: boolean;
  siteTitle: string;
}

interface Entry<T> {
  value: T;
  snapshot: number;
  deps: PageDeps;
}

/** Change-log keys for statuses shown on a page (and the posts they boost). */
export function statusDeps(statuses: readonly WebStatus[], into: PageDeps): void {
  for (const s of statuses) {
    into.keys.push(`s${s.id}`, `a${s.account.id}`);
    if (s.poll) into.hasPoll = true;
    if (s.reblog) statusDeps([s.reblog], into);
  }
}

const caches = new WeakMap<AppContext, Bounded<Entry<unknown>>>();

/**
 * The page kept under `key` while nothing it depends on changed, else what `make` renders (kept
 * for next time when it names its dependencies: a 404 or 410 outcome names none and is not
 * kept). `siteTitle` is the title the page would show now.
 */
export async function keptPage<T>(
  ctx: AppContext,
  key: string,
  siteTitle: () => Promise<string>,
  make: () => Promise<{ value: T; deps?: PageDeps }>,
): Promise<T> {
  let cache = caches.get(ctx);
  if (cache === undefined) {
    // Some 40 KB per page: 20 MB at most.
    cache = new Bounded<Entry<unknown>>(500);
    caches.set(ctx, cache);
  }
  const kept = await keptFor(ctx);
  const hit = cache.get(key) as Entry<T> | undefined;
  if (hit !== undefined) {
    const fresh = hit.deps.keys.every((k) => kept.mayKeep(hit.snapshot, k[0], k.slice(1)));
    if (fresh && (await siteTitle()) === hit.deps.siteTitle) return hit.value;
    cache.delete(key);
  }
  const snapshot = kept.snapshot();
  const made = await make();
  if (made.deps !== undefined && !made.deps.hasPoll) cache.set(key, { value: made.value, snapshot, deps: made.deps });
  return made.value;
}
