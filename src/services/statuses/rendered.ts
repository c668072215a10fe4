import type { AppContext } from "../../context.ts";
import { noRelations } from "../../db/repositories/relationships.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { hiddenByBlocks, type KeepBlockedAndMuted } from "../../policies/blocks.ts";
import {
  parseQuotePolicy as parsedPolicy,
  policyAsksFollowing,
  policyAsksFollows,
  quoteApprovalFor,
} from "../../policies/quotes.ts";
import { canPin, canSeeStatus } from "../../policies/statuses.ts";
import type { PollView } from "../../serializers/poll.ts";
import {
  type QuoteApprovalView,
  quotePartsText,
  type StatusSerializeOptions,
  serializeStatusOwn,
  serializeStatusPoll,
} from "../../serializers/status.ts";
import { accountsText } from "../accounts/views.ts";
import { activeFilters, type FilterScope, matchFilters, searchableText } from "../filters/match.ts";
import { loadPollViews } from "../polls/views.ts";
import {
  type AccountEntry,
  type Kept,
  keptFor,
  type StatusEntry,
  type ViewerFilters,
  type ViewerFlags,
  type ViewerRelations,
} from "./kept.ts";
import { loadStatusViews } from "./views.ts";
import { ownBytes as bytes, JsonBytes, ownParts, statusWriters } from "./views-text.ts";

/**
 * Status lists rendered from parts kept in memory (statuses/kept.ts), for the busiest page (the
 * home timeline): the same JSON, byte for byte, as `statusesText`. A status's own JSON and its
 * author's Account are rendered once and kept until the change log names them; the viewer's
 * flags, blocks, mutes and follows and compiled filters are kept per viewer the same way; only
 * polls (live tallies) are read every time. So a page whose statuses are all kept costs the one
 * query that pages the feed.
 *
 * Visibility is decided with the same policies as `filterVisible`, `filtered` as `applyFilters`.
 */

const unique = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];

/** The statuses (and the posts they boost) of `ids`, kept or read now. */
export async function statusEntries(ctx: AppContext, k: Kept, snap: number, ids: readonly string[]) {
  const out = new Map<string, StatusEntry>();
  const missing: string[] = [];
  const take = (id: string) => {
    const e = k.statuses.get(id);
    if (e !== undefined) out.set(id, e);
    else missing.push(id);
  };
  for (const id of ids) take(id);
  const rows: Status[] = missing.length > 0 ? await ctx.repos.statuses.getByIds(missing) : [];
  const originals = unique(
    [...out.values(), ...rows.map((status) => ({ status }))].flatMap((e) =>
      e.status.reblogOfId === null ? [] : [e.status.reblogOfId],
    ),
  ).filter((id) => !out.has(id) && !rows.some((r) => r.id === id));
  missing.length = 0;
  for (const id of originals) take(id);
  if (missing.length > 0) rows.push(...(await ctx.repos.statuses.getByIds(missing)));
  if (rows.length === 0) return out;
  const opts = serializeOptions(ctx);
  for (const v of await loadStatusViews(ctx, rows, undefined)) {
    const [head, content, application, tail] = ownParts(JSON.stringify(serializeStatusOwn(v, opts)));
    const entry: StatusEntry = {
      status: { ...v.status },
      head: bytes(head),
      content: bytes(content),
      application: bytes(application),
      tail: bytes(tail),
      mentioned: new Set(v.mentions.map((m) => m.id)),
      searchText: searchableText(v),
      emojis: v.emojis,
      quoting: v.quote !== null && v.quote !== undefined,
    };
    out.set(v.status.id, entry);
    if (k.mayKeep(snap, "s", v.status.id)) k.statuses.set(v.status.id, entry);
  }
  return out;
}

/** The authors' Account JSON and searchability, kept or read now. */
export async function accountEntries(ctx: AppContext, k: Kept, snap: number, ids: readonly string[]) {
  const out = new Map<string, AccountEntry>();
  const missing: string[] = [];
  for (const id of ids) {
    const e = k.accounts.get(id);
    if (e !== undefined) out.set(id, e);
    else missing.push(id);
  }
  if (missing.length === 0) return out;
  const found = await ctx.repos.accounts.getByIdsWithSearchable(missing);
  const texts = await accountsText(
    ctx,
    found.map((f) => f.account),
    new Map(found.map((f) => [f.account.id, f.roleId])),
  );
  found.forEach((f, i) => {
    const entry = { text: bytes(texts[i] ?? "{}"), searchable: f.searchable };
    out.set(f.account.id, entry);
    if (k.mayKeep(snap, "a", f.account.id)) k.accounts.set(f.account.id, entry);
  });
  return out;
}

/** The viewer's blocks and mutes with `authorIds` and follows of `followIds`, asking only what is not kept. */
async function viewerRelations(
  ctx: AppContext,
  k: Kept,
  snap: number,
  viewerId: string,
  authorIds: readonly string[],
  followIds: readonly string[],
): Promise<ViewerRelations> {
  const state = k.viewer(viewerId);
  const now = Date.now();
  let r = state.relations;
  if (r === undefined || now >= r.until || r.asked.size > 5000) {
    r = { asked: new Set(), relations: noRelations(), followsAsked: new Set(), follows: new Set(), until: Infinity };
  }
  const ask = authorIds.filter((id) => !r.asked.has(id));
  const askFollows = followIds.filter((id) => !r.followsAsked.has(id));
  const [rel, follows] = await Promise.all([
    ask.length > 0 ? ctx.repos.relationships.blockMuteRelations(viewerId, ask, new Date(now).toISOString()) : undefined,
    askFollows.length > 0 ? ctx.repos.follows.followedAmong(viewerId, askFollows) : undefined,
  ]);
  for (const id of ask) r.asked.add(id);
  for (const id of askFollows) r.followsAsked.add(id);
  if (rel) {
    for (const id of rel.blocking) r.relations.blocking.add(id);
    for (const id of rel.blockedBy) r.relations.blockedBy.add(id);
    for (const id of rel.domainBlocking) r.relations.domainBlocking.add(id);
    for (const id of rel.domainHidden) r.relations.domainHidden.add(id);
    for (const [id, m] of rel.muting) {
      r.relations.muting.set(id, m);
      if (m.expiresAt !== null) r.until = Math.min(r.until, Date.parse(m.expiresAt));
    }
  }
  if (follows) for (const id of follows) r.follows.add(id);
  state.relations = k.mayKeep(snap, "r", viewerId) ? r : undefined;
  return r;
}

/** The viewer's flags on `statuses`, asking only what is not kept. */
async function viewerFlags(
  ctx: AppContext,
  k: Kept,
  snap: number,
  viewerId: string,
  statuses: readonly Status[],
): Promise<ViewerFlags> {
  const state = k.viewer(viewerId);
  let f = state.flags;
  if (f === undefined || f.asked.size > 5000) {
    f = {
      asked: new Set(),
      favourited: new Set(),
      reblogged: new Set(),
      bookmarked: new Set(),
      pinned: new Set(),
      conversationsAsked: new Set(),
      mutedConversations: new Set(),
    };
  }
  // A status is asked about once, with its pin (if pinnable) and its conversation: when every
  // status is known, so are those.
  const ids = unique(statuses.map((s) => s.id)).filter((id) => !f.asked.has(id));
  if (ids.length > 0) {
    const fresh = statuses.filter((s) => !f.asked.has(s.id));
    const pinnable = unique(fresh.filter((s) => canPin(s, viewerId)).map((s) => s.id));
    const conversations = unique(fresh.flatMap((s) => (s.conversationId === null ? [] : [s.conversationId]))).filter(
      (id) => !f.conversationsAsked.has(id),
    );
    const got = await ctx.repos.statusInteractions.viewerFlags(viewerId, ids, pinnable, conversations);
    for (const id of ids) f.asked.add(id);
    for (const id of conversations) f.conversationsAsked.add(id);
    for (const id of got.favourited) f.favourited.add(id);
    for (const id of got.reblogged) f.reblogged.add(id);
    for (const id of got.bookmarked) f.bookmarked.add(id);
    for (const id of got.pinned) f.pinned.add(id);
    for (const id of got.muted) f.mutedConversations.add(id);
  }
  state.flags = k.mayKeep(snap, "v", viewerId) ? f : undefined;
  return f;
}

/** The viewer's filters of `scope`, compiled, kept until one expires or the log names them. */
async function viewerFilters(
  ctx: AppContext,
  k: Kept,
  snap: number,
  viewerId: string,
  scope: FilterScope,
): Promise<ViewerFilters> {
  const state = k.viewer(viewerId);
  const hit = state.filters.get(scope);
  if (hit !== undefined && Date.now() < hit.until) return hit;
  const entry: ViewerFilters = { ...(await activeFilters(ctx, viewerId, scope)), matches: new Map() };
  if (k.mayKeep(snap, "f", viewerId)) state.filters.set(scope, entry);
  return entry;
}

/**
 * `filtered` (JSON text) of a status (a boost: by its boosted post), and whether a filter hides it;
 * kept per status while both entries are (a change to either makes new entries).
 */
export function filteredOf(f: ViewerFilters, s: StatusEntry, original: StatusEntry | undefined) {
  if (f.compiled.length === 0) return { filtered: "[]", hide: false };
  const hit = f.matches.get(s.status.id);
  if (hit !== undefined && hit.of === s && hit.original === original) return hit;
  const { results, hide } = matchFilters(f.compiled, s.status, (original ?? s).searchText);
  const entry = { filtered: JSON.stringify(results), hide, of: s, original };
  if (f.matches.size >= 2000) f.matches.clear();
  f.matches.set(s.status.id, entry);
  return entry;
}

/** What an anonymous reader is rendered with: no relations, no filters (never changed). */
const NOBODY_RELATIONS: ViewerRelations = {
  asked: new Set(),
  relations: noRelations(),
  followsAsked: new Set(),
  follows: new Set(),
  until: Number.POSITIVE_INFINITY,
};
const NOBODY_FILTERS: ViewerFilters = { until: Number.POSITIVE_INFINITY, compiled: [], matches: new Map() };

export interface KeptListOptions {
  /**
   * Names the list and window asked (a timeline's page): the last page of each is kept for asking
   * again. Without, one page is kept per viewer and filter context (the home timeline).
   */
  pageKey?: string;
  /** Whose posts stay though the viewer blocks or mutes them (`filterVisible`'s `keep`). */
  keep?: KeepBlockedAndMuted;
}

/**
 * The statuses of `ids` (in that order) as the JSON array `statusesText` gives for `viewerId`
 * (undefined: an anonymous reader) with `filterContext`: those the viewer may not see (by
 * `filterVisible`'s rules, with `opts.keep`) are left out, and those a `hide` filter matches
 * unless the context is `any` (which, as `statusesText` without a context, only marks them).
 */
export async function keptStatusesText(
  ctx: AppContext,
  ids: readonly string[],
  viewerId: string | undefined,
  filterContext: FilterScope,
  opts: KeptListOptions = {},
): Promise<Buffer> {
  if (ids.length === 0) return Buffer.from("[]");
  const k = await keptFor(ctx);
  const pageKey = `${viewerId ?? ""} ${filterContext} ${opts.keep ?? ""} ${opts.pageKey ?? ""}`;
  const same = samePage(k, pageKey, ids, viewerId, filterContext);
  if (same !== undefined) return same;
  const snap = k.snapshot();
  const byStatus = await statusEntries(ctx, k, snap, ids);
  const entries = [...byStatus.values()];
  const authorIds = unique(entries.map((e) => e.status.accountId));
  // Follows decide private posts and posts only followers may quote (QuoteApproval's `current_user`).
  const followIds = unique(
    entries
      .map((e) => e.status)
      .filter(
        (s) =>
          (s.visibility === "private" || s.visibility === "direct" || policyAsksFollows(s)) && s.accountId !== viewerId,
      )
      .map((s) => s.accountId),
  );
  const [accounts, rel, filters] = await Promise.all([
    accountEntries(ctx, k, snap, authorIds),
    viewerId === undefined ? NOBODY_RELATIONS : viewerRelations(ctx, k, snap, viewerId, authorIds, followIds),
    viewerId === undefined ? NOBODY_FILTERS : viewerFilters(ctx, k, snap, viewerId, filterContext),
  ]);
  const dropHidden = filterContext !== "any";

  // filterVisible's rules on the kept rows.
  const sees = (e: StatusEntry | undefined): e is StatusEntry => {
    if (e === undefined) return false;
    const s = e.status;
    return (
      s.deletedAt === null &&
      accounts.get(s.accountId)?.searchable === true &&
      !hiddenByBlocks(s.accountId, viewerId, rel.relations, opts.keep) &&
      canSeeStatus(s, {
        viewerId,
        followsAuthor: rel.follows.has(s.accountId),
        mentioned: viewerId !== undefined && e.mentioned.has(viewerId),
      })
    );
  };
  const shown: { entry: StatusEntry; original: StatusEntry | undefined; filtered: string }[] = [];
  for (const id of ids) {
    const entry = byStatus.get(id);
    if (!sees(entry)) continue;
    const reblogOf = entry.status.reblogOfId;
    const original = reblogOf === null ? undefined : byStatus.get(reblogOf);
    if (reblogOf !== null && !sees(original)) continue;
    const f = filteredOf(filters, entry, original);
    if (f.hide && dropHidden) continue;
    shown.push({ entry, original, filtered: f.filtered });
  }

  // The viewer's flags (kept) and the polls (read every time).
  const all = shown.flatMap((x) => (x.original ? [x.entry.status, x.original.status] : [x.entry.status]));
  const pollIds = unique(all.flatMap((s) => (s.pollId === null ? [] : [s.pollId])));
  const [flags, polls] = await Promise.all([
    all.length > 0 && viewerId !== undefined ? viewerFlags(ctx, k, snap, viewerId, all) : undefined,
    pollIds.length > 0 ? loadPollViews(ctx, pollIds, viewerId) : new Map<string, PollView>(),
  ]);

  // Quote posts are rendered the slower way: their JSON holds the reader's view of another post.
  const apart = shown.filter((x) => rendersApart(x.entry, x.original));
  const writers =
    apart.length === 0
      ? undefined
      : await statusWriters(
          ctx,
          apart.map((x) => x.entry.status),
          viewerId,
          { filterContext },
        );

  const out = new JsonBytes();
  const parts: WriteParts = { accounts, flags, polls, viewerId, follows: rel.follows, opts: serializeOptions(ctx) };
  out.add("[");
  let first = true;
  for (const x of shown) {
    const writer = writers?.get(x.entry.status.id);
    if (writers !== undefined && rendersApart(x.entry, x.original) && writer === undefined) continue;
    if (!first) out.add(",");
    first = false;
    if (writer) writer(out);
    else writeStatus(out, parts, x.entry, x.original, x.filtered);
  }
  out.add("]");
  const body = out.finish();
  // Kept for the same page asked again, when nothing changed while it was made (so all it was
  // made of is kept), no poll is on it (tallies are read every time) and no quote post (the
  // quoted posts are not among what it was made of).
  if (polls.size === 0 && apart.length === 0 && k.snapshot() === snap) {
    const statuses = [...byStatus.keys()];
    const authors = [...accounts.keys()];
    k.pages.set(pageKey, {
      snapshot: snap,
      ids: [...ids],
      statusIds: statuses,
      statuses: statuses.map((id) => k.statuses.get(id)),
      accountIds: authors,
      accounts: authors.map((id) => k.accounts.get(id)),
      flags,
      relations: rel,
      filters,
      body,
    });
  }
  return body;
}

/** What `writeStatus` writes a status with, besides its own kept parts. */
export interface WriteParts {
  accounts: ReadonlyMap<string, AccountEntry>;
  /** The viewer's flags; without, none are written (no viewer). */
  flags: Pick<ViewerFlags, "favourited" | "reblogged" | "bookmarked" | "pinned" | "mutedConversations"> | undefined;
  polls: ReadonlyMap<string, PollView>;
  /** Undefined: an anonymous reader. */
  viewerId: string | undefined;
  /** Authors the viewer follows, among those whose posts only followers may quote (at least). */
  follows: ReadonlySet<string>;
  opts: StatusSerializeOptions;
}

/**
 * Whether a status (a boost: with its boosted post) is rendered by `statusWriters` rather than
 * from kept parts: a quote post (its JSON shows the reader's view of the quoted post), or a
 * remote post whose quote policy asks whether its author follows the reader.
 */
export function rendersApart(e: StatusEntry, original: StatusEntry | undefined): boolean {
  return e.quoting || original?.quoting === true || policyAsksFollowing((original ?? e).status);
}

/** The reader's QuoteApproval of a post written from kept parts (never a quote post: `rendersApart`). */
function approvalText(p: WriteParts, s: StatusEntry["status"], opts: StatusSerializeOptions): string {
  const approval: QuoteApprovalView = {
    ...parsedPolicy(s.quotePolicy),
    currentUser: quoteApprovalFor(s, p.viewerId, { followsAuthor: p.follows.has(s.accountId) }),
  };
  return quotePartsText({ quote: null, quoteApproval: approval }, opts);
}

export function serializeOptions(ctx: AppContext): StatusSerializeOptions {
  return { baseUrl: ctx.config.baseUrl, blobUrl: (key) => ctx.blobs.url(key) };
}

/**
 * Writes one status's JSON for the viewer of `p` from its kept parts (a boost with its boosted
 * post `original`): the same bytes `statusesText` gives. Also used by streaming (services/streaming).
 */
export function writeStatus(
  out: JsonBytes,
  p: WriteParts,
  e: StatusEntry,
  original: StatusEntry | undefined,
  filtered: string,
): void {
  const s = e.status;
  const flags = p.flags;
  out.bytes(e.head);
  if (flags) {
    const muted = s.conversationId !== null && flags.mutedConversations.has(s.conversationId);
    const pinned = p.viewerId !== undefined && canPin(s, p.viewerId) ? `,"pinned":${flags.pinned.has(s.id)}` : "";
    // As loadStatusViews: a boost shows the viewer's favourite, boost and bookmark of the boosted post.
    const proper = (original ?? e).status.id;
    out.add(
      `,"favourited":${flags.favourited.has(proper)},"reblogged":${flags.reblogged.has(proper)},"muted":${muted},"bookmarked":${flags.bookmarked.has(proper)}${pinned}`,
    );
  }
  out.bytes(e.content);
  out.add(`,"filtered":${filtered},"reblog":`);
  if (original !== undefined) writeStatus(out, p, original, undefined, filtered);
  else out.add("null");
  out.bytes(e.application);
  out.add(`,"account":`);
  const account = p.accounts.get(s.accountId);
  if (account !== undefined) out.bytes(account.text);
  else out.add("{}");
  out.bytes(e.tail);
  const poll = s.pollId === null ? undefined : p.polls.get(s.pollId);
  const pollJson =
    poll === undefined
      ? null
      : serializeStatusPoll(
          {
            status: s,
            account: {},
            reblog: null,
            mentions: [],
            tags: [],
            application: null,
            media: [],
            emojis: e.emojis,
            poll,
          },
          p.opts,
        );
  // A boost shows its boosted post's QuoteApproval (loadStatusViews).
  out.add(`,"poll":${JSON.stringify(pollJson)}${approvalText(p, (original ?? e).status, p.opts)}}`);
}

/**
 * The bytes of the viewer's last page when it is asked again and all it was made of is still
 * kept, the very same objects (anything the change log named was dropped and made anew), or no
 * change was applied since it was made.
 */
function samePage(k: Kept, pageKey: string, ids: readonly string[], viewerId: string | undefined, scope: FilterScope) {
  const last = k.pages.get(pageKey);
  if (last === undefined || last.ids.length !== ids.length) return undefined;
  const state = viewerId === undefined ? undefined : k.viewer(viewerId);
  const now = Date.now();
  if (
    (state === undefined
      ? last.flags !== undefined || last.relations !== NOBODY_RELATIONS || last.filters !== NOBODY_FILTERS
      : state.flags !== last.flags ||
        state.relations !== last.relations ||
        state.filters.get(scope) !== last.filters) ||
    now >= last.relations.until ||
    now >= last.filters.until
  )
    return undefined;
  for (let i = 0; i < ids.length; i++) if (ids[i] !== last.ids[i]) return undefined;
  // No change applied since it was made: all it was made of is as it was (an entry forgotten
  // since, to make room, was not changed), so the bytes are too.
  if (k.snapshot() === last.snapshot) return last.body;
  for (let i = 0; i < last.statusIds.length; i++)
    if (k.statuses.get(last.statusIds[i] as string) !== last.statuses[i]) return undefined;
  for (let i = 0; i < last.accountIds.length; i++)
    if (k.accounts.get(last.accountIds[i] as string) !== last.accounts[i]) return undefined;
  return last.body;
}
