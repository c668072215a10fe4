import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { CustomEmoji } from "../../db/repositories/custom-emojis.ts";
import type { MediaAttachment } from "../../db/repositories/media.ts";
import type { PreviewCard } from "../../db/repositories/preview-cards.ts";
import { type BlockMuteRelations, noRelations } from "../../db/repositories/relationships.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isAccountDeleted } from "../../policies/accounts.ts";
import { hiddenByBlocks, type KeepBlockedAndMuted } from "../../policies/blocks.ts";
import { sensitiveShown } from "../../policies/moderation.ts";
import { canPin, canSeeStatus } from "../../policies/statuses.ts";
import { acctOf } from "../../serializers/account.ts";
import { type MentionView, type StatusView, serializeStatus } from "../../serializers/status.ts";
import { accountsJson, accountsText } from "../accounts/views.ts";
import { loadEmojis, statusEmojiSource } from "../custom-emojis/views.ts";
import { applyFilters, type FilterScope, loadFilters } from "../filters/match.ts";
import { type LoadedPoll, loadPollViews } from "../polls/views.ts";
import { loadQuotes } from "../quotes/views.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";
import { accountsOf, loadedFor, mentionsOf, newLoaded, originalsOf, rememberLoaded } from "./loaded.ts";

/** A status's view with the rows it was made of, which filtering and caching read beyond what the serializer does. */
export interface LoadedStatusView extends StatusView {
  status: Status;
  reblog: LoadedStatusView | null;
  media: MediaAttachment[];
  emojis?: CustomEmoji[];
  poll: LoadedPoll | null;
  card?: PreviewCard | null;
}

/** The viewer's account id, when signed in. */
export type ViewerId = string | undefined;

const unique = (xs: Iterable<string | null | undefined>): string[] => [
  ...new Set([...xs].filter((x): x is string => typeof x === "string")),
];

/**
 * The statuses among `statuses` the viewer may see: live, by a visible author, not by an author
 * who blocks the viewer nor (unless `keep` says so) by one the viewer blocks or mutes, and allowed
 * by the visibility rules; a boost also needs its boosted post to be visible. A bounded number of
 * queries whatever the length of the list. Order is kept.
 */
export async function filterVisible(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: ViewerId,
  opts: { keep?: KeepBlockedAndMuted } = {},
): Promise<Status[]> {
  const live = statuses.filter((s) => s.deletedAt === null);
  if (live.length === 0) return [];
  const loaded = newLoaded();
  const originals = await originalsOf(ctx, loaded, unique(live.map((s) => s.reblogOfId)));
  const all = [...live, ...originals.values()];
  const authorIds = unique(all.map((s) => s.accountId));
  const visibleAuthors = new Set<string>();
  for (const { account, searchable, roleId } of await ctx.repos.accounts.getByIdsWithSearchable(authorIds)) {
    loaded.accounts.set(account.id, account);
    loaded.roleIds.set(account.id, roleId);
    if (searchable) visibleAuthors.add(account.id);
  }
  const needsRelation = all.filter((s) => s.visibility === "private" || s.visibility === "direct");
  let follows = new Set<string>();
  let mentioned = new Set<string>();
  if (viewerId !== undefined && needsRelation.length > 0) {
    // Mentions of the whole list: the views need them too (loadStatusViews).
    const [followed, mentions] = await Promise.all([
      ctx.repos.follows.followedAmong(viewerId, unique(needsRelation.map((s) => s.accountId))),
      mentionsOf(ctx, loaded, unique(all.map((s) => s.id))),
    ]);
    follows = followed;
    mentioned = new Set(needsRelation.filter((s) => mentions.get(s.id)?.includes(viewerId)).map((s) => s.id));
  }
  // Blocks and mutes between the viewer and the authors (policies/blocks.ts).
  const relations: BlockMuteRelations =
    viewerId === undefined ? noRelations() : await blockMuteRelations(ctx, viewerId, authorIds);
  const sees = (s: Status): boolean =>
    s.deletedAt === null &&
    visibleAuthors.has(s.accountId) &&
    !hiddenByBlocks(s.accountId, viewerId, relations, opts.keep) &&
    canSeeStatus(s, { viewerId, followsAuthor: follows.has(s.accountId), mentioned: mentioned.has(s.id) });
  const visible = live.filter((s) => {
    if (!sees(s)) return false;
    if (s.reblogOfId === null) return true;
    const original = originals.get(s.reblogOfId);
    return original !== undefined && sees(original);
  });
  rememberLoaded(visible, loaded);
  return visible;
}

/** Whether the viewer may see this one status (see `filterVisible`; the viewer's own blocks and mutes do not hide it). */
export async function isVisible(ctx: AppContext, status: Status, viewerId: ViewerId): Promise<boolean> {
  return (await filterVisible(ctx, [status], viewerId, { keep: "all" })).length === 1;
}

/**
 * Views of statuses the caller already checked, with boosted posts, authors, mentions, tags,
 * applications, quotes (services/quotes/views.ts: the quoted posts the viewer may see, rendered
 * here too with their own quotes shallow: `shallowQuotes`) and the viewer's flags, in a bounded
 * number of queries.
 */
export async function loadStatusViews(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: ViewerId,
  opts: { accountText?: boolean; shallowQuotes?: boolean } = {},
): Promise<LoadedStatusView[]> {
  if (statuses.length === 0) return [];
  const loaded = loadedFor(statuses);
  const originals = await originalsOf(ctx, loaded, unique(statuses.map((s) => s.reblogOfId)));
  const all = [...statuses];
  for (const s of statuses) {
    const o = s.reblogOfId === null ? undefined : originals.get(s.reblogOfId);
    if (o !== undefined) all.push(o);
  }
  const allIds = unique(all.map((s) => s.id));
  const [mentions, tags, apps, media, polls, cards, quotes] = await Promise.all([
    mentionsOf(ctx, loaded, allIds),
    ctx.repos.statuses.tagsOf(allIds),
    ctx.repos.statuses.applicationsOf(unique(all.map((s) => s.applicationId))),
    ctx.repos.media.listByStatuses(allIds),
    loadPollViews(ctx, unique(all.map((s) => s.pollId)), viewerId),
    ctx.repos.previewCards.byStatuses(allIds),
    loadQuotes(
      ctx,
      all,
      viewerId,
      opts.shallowQuotes ? undefined : (quoted) => loadStatusViews(ctx, quoted, viewerId, { shallowQuotes: true }),
      (quoted) => filterVisible(ctx, quoted, viewerId, { keep: "all" }),
    ),
  ]);
  const authorIds = unique(all.map((s) => s.accountId));
  const mentionedIds = unique(allIds.flatMap((id) => mentions.get(id) ?? []));
  const byId = await accountsOf(ctx, loaded, unique([...authorIds, ...mentionedIds]));
  const authors = authorIds.flatMap((id) => byId.get(id) ?? []);
  const [json, emojis] = await Promise.all([
    opts.accountText ? accountsText(ctx, authors, loaded.roleIds) : accountsJson(ctx, authors, loaded.roleIds),
    loadEmojis(
      ctx,
      all.map((s) =>
        statusEmojiSource(s, byId.get(s.accountId), s.pollId ? polls.get(s.pollId)?.poll.options : undefined),
      ),
    ),
  ]);
  const emojisOf = new Map(all.map((s, i) => [s.id, emojis[i]]));
  const authorJson = new Map(authors.map((a, i) => [a.id, json[i]]));
  const mediaOf = new Map<string, MediaAttachment[]>();
  for (const m of media) {
    if (m.statusId === null) continue;
    const list = mediaOf.get(m.statusId);
    if (list) list.push(m);
    else mediaOf.set(m.statusId, [m]);
  }

  let flags: ((s: Status, proper?: Status) => StatusView["viewer"]) | undefined;
  if (viewerId !== undefined) {
    const f = await ctx.repos.statusInteractions.viewerFlags(
      viewerId,
      allIds,
      unique(all.filter((s) => canPin(s, viewerId)).map((s) => s.id)),
      unique(all.map((s) => s.conversationId)),
    );
    // A boost carries the viewer's favourite, boost and bookmark of the boosted post, as
    // Mastodon's serializer gives them (Account#favourited? etc. read `status.proper`): clients
    // light their buttons from the top level. Mute and pin stay the boost's own.
    flags = (s, proper = s) => ({
      favourited: f.favourited.has(proper.id),
      reblogged: f.reblogged.has(proper.id),
      bookmarked: f.bookmarked.has(proper.id),
      muted: s.conversationId !== null && f.muted.has(s.conversationId),
      pinned: canPin(s, viewerId) ? f.pinned.has(s.id) : undefined,
    });
  }

  const author = (id: string): Pick<StatusView, "account" | "accountText"> => {
    const a = authorJson.get(id);
    return typeof a === "string" ? { account: {}, accountText: a } : { account: a ?? {} };
  };
  const mentionView = (id: string): MentionView[] => {
    const a = byId.get(id);
    if (!a || isAccountDeleted(a)) return [];
    return [{ id: a.id, username: a.username, acct: acctOf(a), url: a.url ?? a.uri }];
  };
  const view = (s: Status, nested?: Status): LoadedStatusView => ({
    status: shownStatus(s, byId.get(s.accountId)),
    ...author(s.accountId),
    reblog: nested ? view(nested) : null,
    mentions: (mentions.get(s.id) ?? []).flatMap(mentionView),
    tags: tags.get(s.id) ?? [],
    application: s.applicationId ? (apps.get(s.applicationId) ?? null) : null,
    media: mediaOf.get(s.id) ?? [],
    emojis: emojisOf.get(s.id),
    poll: s.pollId === null ? null : (polls.get(s.pollId) ?? null),
    card: cards.get(s.id) ?? null,
    viewer: flags?.(s, nested),
    quote: quotes.quoteOf(s.id),
    // A boost shows its boosted post's policy, as Mastodon's serializer reads `status.proper`.
    quoteApproval: quotes.approvalOf(nested ?? s),
  });
  return statuses.map((s) => view(s, s.reblogOfId ? originals.get(s.reblogOfId) : undefined));
}

/** The status as shown: `sensitive` when its author is sensitized (policies/moderation.ts). */
function shownStatus(s: Status, author: Account | undefined): Status {
  return !s.sensitive && sensitiveShown(false, author) ? { ...s, sensitive: true } : s;
}

/**
 * Status JSON for a list the caller already checked. With a viewer, each status carries
 * `filtered`: with `filterContext`, for the viewer's filters of that context, and those a `hide`
 * filter matches are left out (so the answer may be shorter than `statuses`); without, as
 * Mastodon outside timelines, for every active filter, hiding nothing (`any`).
 */
export async function statusesJson(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: ViewerId,
  opts: { withSource?: boolean; filterContext?: FilterScope } = {},
): Promise<Record<string, unknown>[]> {
  const scope = viewerId === undefined || statuses.length === 0 ? undefined : (opts.filterContext ?? "any");
  const [loaded, filters] = await Promise.all([
    loadStatusViews(ctx, statuses, viewerId),
    scope && viewerId ? loadFilters(ctx, viewerId, scope) : [],
  ]);
  const views = applyFilters(loaded, filters, scope !== "any");
  return views.map((v) =>
    serializeStatus(v, {
      baseUrl: ctx.config.baseUrl,
      blobUrl: (key) => ctx.blobs.url(key),
      withSource: opts.withSource,
    }),
  );
}

export async function statusJson(
  ctx: AppContext,
  status: Status,
  viewerId: ViewerId,
  opts: { withSource?: boolean; filterContext?: FilterScope } = {},
): Promise<Record<string, unknown>> {
  const [json] = await statusesJson(ctx, [status], viewerId, opts);
  return json;
}
