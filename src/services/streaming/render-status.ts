import type { AppContext } from "../../context.ts";
import type { FilterContext } from "../../db/repositories/filters.ts";
import type { StatusInteractions } from "../../db/repositories/streaming.ts";
import { policyAsksFollows } from "../../policies/quotes.ts";
import { canSeeStatus } from "../../policies/statuses.ts";
import { type LoadedPoll, loadPollViews } from "../polls/views.ts";
import type { StatusEntry, ViewerFilters } from "../statuses/kept.ts";
import { keptFor } from "../statuses/kept.ts";
import {
  accountEntries,
  filteredOf,
  rendersApart,
  serializeOptions,
  statusEntries,
  type WriteParts,
  writeStatus,
} from "../statuses/rendered.ts";
import { JsonBytes, statusWriters } from "../statuses/views-text.ts";

/** Subscribers who get the very same Status JSON. */
export interface RenderedGroup {
  payload: string;
  viewers: string[];
}

/** Compiled filters of the viewers, for one context (the streaming hub keeps them). */
export type FiltersOf = (viewers: readonly string[], scope: FilterContext) => Promise<Map<string, ViewerFilters>>;

const NO_FILTERS: ViewerFilters = { until: Number.POSITIVE_INFINITY, compiled: [], matches: new Map() };

/**
 * One status as each of `viewers` may see it, rendered once per distinct need: the JSON the REST
 * API gives that viewer (statuses/rendered.ts writes both), with `filtered` for `scope`. Viewers
 * who may not see it (visibility, blocks and mutes either way as the home filter decides, domain
 * blocks, a `hide` filter) are left out. A fixed number of queries whatever the number of
 * viewers: the status's parts come from the kept renders, and blocks, mutes, favourites, boosts,
 * bookmarks, pins, conversation mutes and votes are asked from the status's side; only a private
 * post asks which viewers follow its author.
 */
export async function renderStatusFor(
  ctx: AppContext,
  statusId: string,
  viewers: readonly string[],
  scope: FilterContext,
  filtersOf: FiltersOf,
): Promise<RenderedGroup[]> {
  if (viewers.length === 0) return [];
  const k = await keptFor(ctx);
  const snap = k.snapshot();
  const byStatus = await statusEntries(ctx, k, snap, [statusId]);
  const entry = byStatus.get(statusId);
  if (entry === undefined) return [];
  const reblogOf = entry.status.reblogOfId;
  const original = reblogOf === null ? undefined : byStatus.get(reblogOf);
  if (reblogOf !== null && original === undefined) return [];
  const shown: StatusEntry[] = original ? [entry, original] : [entry];
  if (shown.some((e) => e.status.deletedAt !== null)) return [];
  const authorIds = [...new Set(shown.map((e) => e.status.accountId))];
  const accounts = await accountEntries(ctx, k, snap, authorIds);
  if (authorIds.some((id) => accounts.get(id)?.searchable !== true)) return [];

  const top = entry.status.accountId;
  const mentioned = [...new Set(shown.flatMap((e) => [...e.mentioned]))];
  const excluded = await ctx.repos.streaming.excludedViewers(authorIds, mentioned, new Date().toISOString());
  // Followers matter only for private posts, seen by viewers neither author nor mentioned.
  const follows = new Map<string, Set<string>>();
  for (const e of shown) {
    if (e.status.visibility !== "private") continue;
    const ask = viewers.filter((v) => v !== e.status.accountId && !e.mentioned.has(v));
    follows.set(e.status.accountId, await ctx.repos.streaming.followersAmong(e.status.accountId, ask));
  }
  const sees = (viewer: string, e: StatusEntry): boolean =>
    canSeeStatus(e.status, {
      viewerId: viewer,
      followsAuthor: follows.get(e.status.accountId)?.has(viewer) === true,
      mentioned: e.mentioned.has(viewer),
    });
  const visible = viewers.filter((v) => (v === top || !excluded.has(v)) && shown.every((e) => sees(v, e)));
  if (visible.length === 0) return [];

  // A quote post shows each viewer's own view of the quoted post: rendered per viewer the slower
  // way (a few queries each), as the REST API renders it.
  if (rendersApart(entry, original)) return renderApart(ctx, entry.status, visible, scope);

  // Who follows the author decides QuoteApproval's `current_user` when only followers may quote.
  const quoteFollowers = new Map<string, Set<string>>();
  for (const e of shown) {
    if (!policyAsksFollows(e.status) || quoteFollowers.has(e.status.accountId)) continue;
    quoteFollowers.set(e.status.accountId, await ctx.repos.streaming.followersAmong(e.status.accountId, visible));
  }
  const followsOf = (viewer: string): Set<string> =>
    new Set([...quoteFollowers].filter(([, followers]) => followers.has(viewer)).map(([author]) => author));

  const filters = await filtersOf(visible, scope);
  const statuses = shown.map((e) => e.status);
  const pollIds = [...new Set(statuses.flatMap((s) => (s.pollId === null ? [] : [s.pollId])))];
  const [interactions, polls] = await Promise.all([
    ctx.repos.streaming.interactions(
      statuses.map((s) => s.id),
      [...new Set(statuses.flatMap((s) => (s.conversationId === null ? [] : [s.conversationId])))],
      pollIds,
    ),
    loadPollViews(ctx, pollIds, undefined),
  ]);

  // Viewers are grouped by what differs between them: flags, `filtered`, their votes.
  const groups = new Map<string, { filtered: string; viewers: string[] }>();
  for (const v of visible) {
    const f = filteredOf(filters.get(v) ?? NO_FILTERS, entry, original);
    if (f.hide) continue;
    const key = `${flagsKey(interactions, statuses, v)}\n${pollKey(interactions, polls, v)}\n${f.filtered}\n${[...followsOf(v)]}`;
    const g = groups.get(key);
    if (g) g.viewers.push(v);
    else groups.set(key, { filtered: f.filtered, viewers: [v] });
  }
  const opts = serializeOptions(ctx);
  const out: RenderedGroup[] = [];
  for (const g of groups.values()) {
    const viewer = g.viewers[0] as string;
    const parts: WriteParts = {
      accounts,
      flags: flagsOf(interactions, viewer),
      polls: pollsFor(interactions, polls, viewer),
      viewerId: viewer,
      follows: followsOf(viewer),
      opts,
    };
    const bytes = new JsonBytes();
    writeStatus(bytes, parts, entry, original, g.filtered);
    out.push({ payload: bytes.finish().toString("utf8"), viewers: g.viewers });
  }
  return out;
}

/** A quote post for each viewer, as `statusWriters` renders it for them (a `hide` filter leaves a viewer out). */
async function renderApart(
  ctx: AppContext,
  status: StatusEntry["status"],
  viewers: readonly string[],
  scope: FilterContext,
): Promise<RenderedGroup[]> {
  const byPayload = new Map<string, string[]>();
  for (const viewer of viewers) {
    const writer = (await statusWriters(ctx, [status], viewer, { filterContext: scope })).get(status.id);
    if (writer === undefined) continue;
    const bytes = new JsonBytes();
    writer(bytes);
    const payload = bytes.finish().toString("utf8");
    const same = byPayload.get(payload);
    if (same) same.push(viewer);
    else byPayload.set(payload, [viewer]);
  }
  return [...byPayload].map(([payload, group]) => ({ payload, viewers: group }));
}

/** The viewer's flags as `writeStatus` reads them (sets of the ids it holds). */
function flagsOf(i: StatusInteractions, viewer: string): WriteParts["flags"] {
  const pick = (pairs: Set<string>) => {
    const out = new Set<string>();
    const prefix = `${viewer} `;
    for (const p of pairs) if (p.startsWith(prefix)) out.add(p.slice(prefix.length));
    return out;
  };
  if (!i.accounts.has(viewer)) {
    const none = new Set<string>();
    return { favourited: none, reblogged: none, bookmarked: none, pinned: none, mutedConversations: none };
  }
  return {
    favourited: pick(i.favourited),
    reblogged: pick(i.reblogged),
    bookmarked: pick(i.bookmarked),
    pinned: pick(i.pinned),
    mutedConversations: pick(i.mutedConversations),
  };
}

function flagsKey(i: StatusInteractions, statuses: readonly { id: string; accountId: string }[], viewer: string) {
  // The author's own post carries `pinned`, so it is rendered for them apart.
  const own = statuses.some((s) => s.accountId === viewer) ? "own" : "";
  if (!i.accounts.has(viewer)) return own;
  const f = flagsOf(i, viewer);
  return `${own}${viewer}:${[...(f?.favourited ?? [])]}/${[...(f?.reblogged ?? [])]}/${[...(f?.bookmarked ?? [])]}/${[...(f?.pinned ?? [])]}/${[...(f?.mutedConversations ?? [])]}`;
}

function pollKey(i: StatusInteractions, polls: Map<string, LoadedPoll>, viewer: string): string {
  if (polls.size === 0) return "";
  const parts: string[] = [];
  for (const [id, p] of polls) {
    const mine = i.votes.get(id)?.get(viewer);
    parts.push(p.poll.accountId === viewer || mine ? `${id}:${mine ?? []}` : "");
  }
  return parts.join(",");
}

/** The polls with the viewer's votes (`voted`, `own_votes`). */
function pollsFor(i: StatusInteractions, polls: Map<string, LoadedPoll>, viewer: string): Map<string, LoadedPoll> {
  const out = new Map<string, LoadedPoll>();
  for (const [id, p] of polls) {
    const mine = i.votes.get(id)?.get(viewer) ?? [];
    out.set(id, { ...p, viewer: { voted: p.poll.accountId === viewer || mine.length > 0, ownVotes: mine } });
  }
  return out;
}
