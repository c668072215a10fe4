import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";

/**
 * What `filterVisible` read about a list of statuses, handed on to `loadStatusViews` so one
 * request reads each boosted post, author and mention list once. It is tied to the very Status
 * objects `filterVisible` returned (a WeakMap): rows read by one request for that request, never
 * shared between requests, and gone with them.
 */
export interface Loaded {
  /** Boosted posts by id. */
  originals: Map<string, Status>;
  /** Authors by id (and mentioned accounts, once read). */
  accounts: Map<string, Account>;
  /** The role of each author's user (null: none), when read with the authors. */
  roleIds: Map<string, string | null>;
  /** Mentioned account ids per status id, for the statuses in `mentionsRead`. */
  mentions: Map<string, string[]>;
  mentionsRead: Set<string>;
}

const loadedWith = new WeakMap<Status, Loaded>();

export function newLoaded(): Loaded {
  return {
    originals: new Map(),
    accounts: new Map(),
    roleIds: new Map(),
    mentions: new Map(),
    mentionsRead: new Set(),
  };
}

export function rememberLoaded(statuses: readonly Status[], loaded: Loaded): void {
  for (const s of statuses) loadedWith.set(s, loaded);
}

/** What was read with these statuses, or a fresh empty record when they came from elsewhere. */
export function loadedFor(statuses: readonly Status[]): Loaded {
  const first = statuses[0] === undefined ? undefined : loadedWith.get(statuses[0]);
  if (first !== undefined && statuses.every((s) => loadedWith.get(s) === first)) return first;
  return newLoaded();
}

/** Mentioned account ids of these statuses, reading only those not read yet. */
export async function mentionsOf(ctx: AppContext, loaded: Loaded, ids: readonly string[]) {
  const missing = ids.filter((id) => !loaded.mentionsRead.has(id));
  if (missing.length > 0) {
    const found = await ctx.repos.statuses.mentionsOf(missing);
    for (const id of missing) {
      loaded.mentionsRead.add(id);
      const list = found.get(id);
      if (list) loaded.mentions.set(id, list);
    }
  }
  return loaded.mentions;
}

/** Accounts by id, reading only those not read yet. */
export async function accountsOf(ctx: AppContext, loaded: Loaded, ids: readonly string[]) {
  const missing = ids.filter((id) => !loaded.accounts.has(id));
  for (const a of await ctx.repos.accounts.getByIds(missing)) loaded.accounts.set(a.id, a);
  return loaded.accounts;
}

/** Boosted posts by id, reading only those not read yet. */
export async function originalsOf(ctx: AppContext, loaded: Loaded, ids: readonly string[]) {
  const missing = ids.filter((id) => !loaded.originals.has(id));
  for (const s of await ctx.repos.statuses.getByIds(missing)) loaded.originals.set(s.id, s);
  return loaded.originals;
}
