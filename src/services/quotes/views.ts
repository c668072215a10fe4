import type { AppContext } from "../../context.ts";
import type { Quote } from "../../db/repositories/quotes.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { parseQuotePolicy, policyAsksFollowing, policyAsksFollows, quoteApprovalFor } from "../../policies/quotes.ts";
import type { QuoteApprovalView, QuoteView, StatusView } from "../../serializers/status.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";

/**
 * What the Status entity shows of quotes, loaded for a list of statuses in a bounded number of
 * queries (whatever the length of the list): each post's quote with the reader's view of the
 * quoted post (Quote at the top, ShallowQuote inside a quoted post), and the reader's
 * QuoteApproval.
 *
 * An accepted quote shows its quoted post unless the reader may not see it (`unauthorized`,
 * without the post, as Mastodon hides it) or it is gone (`deleted`); when the reader blocks or
 * mutes its author (or blocks the author's domain), the state says so (`blocked_account`,
 * `muted_account`, `blocked_domain`) and clients hide it behind a notice. Other states show no post.
 */

const unique = (xs: Iterable<string | null | undefined>): string[] => [
  ...new Set([...xs].filter((x): x is string => typeof x === "string")),
];

export interface LoadedQuotes {
  /** The quote a post makes (null: none). */
  quoteOf(statusId: string): QuoteView | null;
  /** The reader's QuoteApproval of a post. */
  approvalOf(status: Status): QuoteApprovalView;
}

/** Views of the quoted posts (their own quotes shallow), with the same viewer: statuses/views.ts. */
export type LoadNested = (statuses: readonly Status[]) => Promise<StatusView[]>;

/**
 * Quotes and QuoteApprovals of `statuses` for the reader. `nested` renders the quoted posts;
 * without it (inside a quoted post) quotes are shallow: state and the quoted post's id.
 */
export async function loadQuotes(
  ctx: AppContext,
  statuses: readonly Status[],
  viewerId: string | undefined,
  nested: LoadNested | undefined,
  visibleAmong: (statuses: readonly Status[]) => Promise<Status[]>,
): Promise<LoadedQuotes> {
  const ids = unique(statuses.map((s) => s.id));
  const askFollows = viewerId === undefined ? [] : unique(statuses.filter(policyAsksFollows).map((s) => s.accountId));
  const askFollowing =
    viewerId === undefined ? [] : unique(statuses.filter(policyAsksFollowing).map((s) => s.accountId));
  const [rows, follows, followedBy] = await Promise.all([
    ctx.repos.quotes.byQuotingStatuses(ids),
    viewerId !== undefined && askFollows.length > 0
      ? ctx.repos.follows.followedAmong(viewerId, askFollows)
      : new Set<string>(),
    viewerId !== undefined && askFollowing.length > 0
      ? ctx.repos.streaming.followersAmong(viewerId, askFollowing)
      : new Set<string>(),
  ]);

  // An older-form quote (`_misskey_quote`, `quoteUrl`) shows only once accepted (Quote#acceptable?).
  const quotes = new Map([...rows].filter(([, q]) => q.state === "accepted" || !q.legacy));
  const views = new Map<string, QuoteView>();
  if (nested === undefined) {
    for (const [statusId, q] of quotes) views.set(statusId, shallowView(q));
  } else {
    await fullViews(ctx, quotes, viewerId, nested, visibleAmong, views);
  }

  return {
    quoteOf: (statusId) => views.get(statusId) ?? null,
    approvalOf: (status) => {
      const policy = parseQuotePolicy(status.quotePolicy);
      return {
        automatic: policy.automatic,
        manual: policy.manual,
        currentUser: quoteApprovalFor(status, viewerId, {
          followsAuthor: follows.has(status.accountId),
          followedByAuthor: followedBy.has(status.accountId),
        }),
      };
    },
  };
}

/** ShallowQuote: the state and, when accepted, the quoted post's id. */
function shallowView(q: Quote): QuoteView {
  return {
    state: q.state,
    quotedStatusId: q.state === "accepted" ? q.quotedStatusId : null,
    quoted: null,
    shallow: true,
  };
}

async function fullViews(
  ctx: AppContext,
  quotes: Map<string, Quote>,
  viewerId: string | undefined,
  nested: LoadNested,
  visibleAmong: (statuses: readonly Status[]) => Promise<Status[]>,
  out: Map<string, QuoteView>,
): Promise<void> {
  const accepted = [...quotes.values()].filter((q) => q.state === "accepted" && q.quotedStatusId !== null);
  const rows =
    accepted.length === 0 ? [] : await ctx.repos.statuses.getByIds(unique(accepted.map((q) => q.quotedStatusId)));
  const live = rows.filter((s) => s.deletedAt === null);
  const visible = live.length === 0 ? [] : await visibleAmong(live);
  const authors = unique(visible.map((s) => s.accountId));
  const [relations, rendered] = await Promise.all([
    viewerId === undefined || authors.length === 0 ? undefined : blockMuteRelations(ctx, viewerId, authors),
    visible.length === 0 ? [] : nested(visible),
  ]);
  const byId = new Map(rows.map((s) => [s.id, s]));
  const shown = new Set(visible.map((s) => s.id));
  const viewOf = new Map(rendered.map((v) => [v.status.id, v]));
  for (const [statusId, q] of quotes) {
    if (q.state !== "accepted") {
      out.set(statusId, { state: q.state, quotedStatusId: null, quoted: null, shallow: false });
      continue;
    }
    const quoted = q.quotedStatusId === null ? undefined : byId.get(q.quotedStatusId);
    if (quoted === undefined || quoted.deletedAt !== null) {
      out.set(statusId, { state: "deleted", quotedStatusId: null, quoted: null, shallow: false });
      continue;
    }
    const view = viewOf.get(quoted.id);
    if (!shown.has(quoted.id) || view === undefined) {
      out.set(statusId, { state: "unauthorized", quotedStatusId: null, quoted: null, shallow: false });
      continue;
    }
    let state = "accepted";
    const a = quoted.accountId;
    if (relations && a !== viewerId) {
      if (relations.blocking.has(a)) state = "blocked_account";
      else if (relations.domainBlocking.has(a)) state = "blocked_domain";
      else if (relations.muting.has(a)) state = "muted_account";
    }
    out.set(statusId, { state, quotedStatusId: quoted.id, quoted: view, shallow: false });
  }
}
