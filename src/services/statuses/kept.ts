import type { AppContext } from "../../context.ts";
import type { CustomEmoji } from "../../db/repositories/custom-emojis.ts";
import type { BlockMuteRelations } from "../../db/repositories/relationships.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { CompiledFilter, FilterScope } from "../filters/match.ts";

/**
 * What rendering status lists keeps in memory between requests (statuses/rendered.ts), and how
 * it learns that something it keeps went stale: the database logs every such change in
 * `render_changes` by triggers (migration 0024), whichever process or statement made it, and
 * `sync` reads the new rows before a page is rendered and drops what they name. On SQLite the
 * log is read only when this process wrote to a logged table or another process committed
 * (`renderChangeStamp`: on PostgreSQL, another process's change notice), so an idle page costs
 * no query for it.
 */

/** One status's own JSON in four parts (views-text.ts `ownParts`), and what deciding and filtering need. */
export interface StatusEntry {
  status: Status;
  head: Buffer;
  content: Buffer;
  application: Buffer;
  tail: Buffer;
  /** Accounts it mentions (a private or direct post is visible to them). */
  mentioned: ReadonlySet<string>;
  /** What filter keywords are matched against (filters/match.ts `searchableText`). */
  searchText: string;
  emojis: CustomEmoji[] | undefined;
  /** It quotes a post: its JSON depends on the reader's view of that post, so it is rendered apart (rendered.ts). */
  quoting: boolean;
}

/** One account's Account JSON and whether statuses by it may be shown (searchable). */
export interface AccountEntry {
  text: Buffer;
  searchable: boolean;
}

/** A viewer's compiled filters for one context, with their matches by status id. */
export interface ViewerFilters {
  /** When the first of them expires (ms), or Infinity. */
  until: number;
  compiled: CompiledFilter[];
  /** By status id, with the entries they were matched on (new entries after a change). */
  matches: Map<string, { filtered: string; hide: boolean; of: StatusEntry; original: StatusEntry | undefined }>;
}

/** The viewer's flags on the statuses asked about so far. */
export interface ViewerFlags {
  asked: Set<string>;
  favourited: Set<string>;
  reblogged: Set<string>;
  bookmarked: Set<string>;
  /** Among the asked, those the viewer pinned (only their own pinnable statuses are asked). */
  pinned: Set<string>;
  conversationsAsked: Set<string>;
  mutedConversations: Set<string>;
}

/** The viewer's blocks, mutes and follows with the accounts asked about so far. */
export interface ViewerRelations {
  asked: Set<string>;
  relations: BlockMuteRelations;
  followsAsked: Set<string>;
  follows: Set<string>;
  /** When the first mute among them expires (ms), or Infinity. */
  until: number;
}

/** A page as rendered (statuses/rendered.ts), with the kept objects it was made of. */
export interface KeptPage {
  /** `Kept.snapshot()` when it was made: while it is the same, no change was applied since. */
  snapshot: number;
  ids: readonly string[];
  statusIds: readonly string[];
  statuses: readonly (StatusEntry | undefined)[];
  accountIds: readonly string[];
  accounts: readonly (AccountEntry | undefined)[];
  flags: ViewerFlags | undefined;
  relations: ViewerRelations;
  filters: ViewerFilters;
  body: Buffer;
}

export interface ViewerState {
  filters: Map<FilterScope, ViewerFilters>;
  flags?: ViewerFlags;
  relations?: ViewerRelations;
}

/**
 * A bounded map that forgets its oldest entries first (by insertion, not by use: a lookup costs
 * no reordering, and an entry forgotten while still in use is simply made again).
 */
export class Bounded<V> {
  readonly #max: number;
  readonly #map = new Map<string, V>();
  constructor(max: number) {
    this.#max = max;
  }
  get(key: string): V | undefined {
    return this.#map.get(key);
  }
  set(key: string, v: V): void {
    this.#map.delete(key);
    this.#map.set(key, v);
    if (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next().value;
      if (oldest !== undefined) this.#map.delete(oldest);
    }
  }
  delete(key: string): void {
    this.#map.delete(key);
  }
  clear(): void {
    this.#map.clear();
  }
}

/** Rows read from the log at once; more means a flood of changes: everything is dropped instead. */
const BATCH = 1000;
/** How long a hole in the sequence (a PostgreSQL transaction not yet committed) is waited for. */
const GAP_WAIT_MS = 2000;

export class Kept {
  // Some 3 KB per status and 2 KB per account: about 15 MB at most.
  readonly statuses = new Bounded<StatusEntry>(4000);
  readonly accounts = new Bounded<AccountEntry>(2000);
  readonly viewers = new Bounded<ViewerState>(1000);
  /**
   * The last page rendered for a viewer and context, with the kept objects it was made of: asked
   * for the same page again (a client refreshing), the bytes are sent again. 200 pages of some
   * 80 KB: 16 MB at most.
   */
  readonly pages = new Bounded<KeptPage>(200);
  #seq = -1;
  #stamp: number | undefined;
  #gapSince = 0;
  /** Grows with every change applied; `#dropped` says when each kind and key last was. */
  #counter = 0;
  #dropped = new Map<string, number>();
  #clearedAt = 0;

  /**
   * The moment before rows are read for keeping: what is read after it may be kept only if no
   * change to it was applied since (`mayKeep`). A change read from the log while a request was
   * still reading its rows would otherwise be applied before they were kept, and missed.
   */
  snapshot(): number {
    return this.#counter;
  }

  mayKeep(snapshot: number, kind: string, key: string): boolean {
    return this.#clearedAt <= snapshot && (this.#dropped.get(`${kind}${key}`) ?? 0) <= snapshot;
  }

  viewer(id: string): ViewerState {
    let v = this.viewers.get(id);
    if (v === undefined) {
      v = { filters: new Map() };
      this.viewers.set(id, v);
    }
    return v;
  }

  clear(): void {
    this.#counter++;
    this.#clearedAt = this.#counter;
    this.#dropped.clear();
    this.statuses.clear();
    this.accounts.clear();
    this.viewers.clear();
    this.pages.clear();
  }

  /** Drops what the changes logged since the last call name. */
  async sync(ctx: AppContext): Promise<void> {
    const stamp = ctx.database.renderChangeStamp();
    if (this.#seq >= 0 && stamp !== undefined && stamp === this.#stamp) return;
    if (this.#seq < 0) {
      this.#seq = await ctx.repos.renderChanges.latest();
      this.#stamp = stamp;
      this.clear();
      return;
    }
    const rows = await ctx.repos.renderChanges.since(this.#seq, BATCH);
    if (rows.length === BATCH) {
      this.clear();
      this.#seq = rows[rows.length - 1]?.seq ?? this.#seq;
      this.#gapSince = 0;
      return; // the stamp stays: the rest is read next time
    }
    let next = this.#seq;
    let gap = false;
    for (const r of rows) {
      this.#apply(r.kind, r.key);
      if (!gap && r.seq === next + 1) next = r.seq;
      else gap = true;
    }
    if (gap) {
      // A hole: a transaction that took its number has not committed yet (PostgreSQL), or the
      // log was trimmed past us. Read from the hole again until it fills; past the wait, drop all.
      const now = Date.now();
      if (this.#gapSince === 0) this.#gapSince = now;
      else if (now - this.#gapSince > GAP_WAIT_MS) {
        this.clear();
        next = rows[rows.length - 1]?.seq ?? next;
        this.#gapSince = 0;
      }
      this.#seq = next;
      return; // the stamp stays: read again next time
    }
    this.#gapSince = 0;
    this.#seq = next;
    this.#stamp = stamp;
  }

  #apply(kind: string, key: string): void {
    this.#counter++;
    this.#dropped.set(`${kind}${key}`, this.#counter);
    if (this.#dropped.size > 10_000) {
      this.#dropped.clear();
      this.#clearedAt = this.#counter;
    }
    switch (kind) {
      case "s":
        this.statuses.delete(key);
        break;
      case "a":
        this.accounts.delete(key);
        break;
      case "f":
        this.viewers.get(key)?.filters.clear();
        break;
      case "v": {
        const v = this.viewers.get(key);
        if (v) v.flags = undefined;
        break;
      }
      case "r": {
        const v = this.viewers.get(key);
        if (v) v.relations = undefined;
        break;
      }
      default:
        this.clear();
    }
  }
}

const kept = new WeakMap<AppContext, Kept>();

/** This process's kept renders for `ctx`, synced with the change log. */
export async function keptFor(ctx: AppContext): Promise<Kept> {
  let k = kept.get(ctx);
  if (k === undefined) {
    k = new Kept();
    kept.set(ctx, k);
  }
  await k.sync(ctx);
  return k;
}
