/** Everything the Poll serializer needs, loaded beforehand (services/polls/views.ts). */
export interface PollView {
  poll: {
    id: string;
    expiresAt: string | null;
    options: readonly string[];
    multiple: boolean;
    hideTotals: boolean;
  };
  tally: {
    /** Votes by option index. */
    perOption: ReadonlyMap<number, number>;
    votesCount: number;
    votersCount: number;
  };
  expired: boolean;
  /** Only with a signed-in viewer. */
  viewer?: { voted: boolean; ownVotes: number[] };
}

/**
 * Mastodon's Poll entity. Per-option counts are null while a `hide_totals` poll runs (for
 * everyone, its author included, as Mastodon does); `voted` and `own_votes` only with a viewer.
 */
export function serializePoll(
  view: PollView,
  emojis: readonly Record<string, unknown>[] = [],
): Record<string, unknown> {
  const p = view.poll;
  const showTotals = view.expired || !p.hideTotals;
  const out: Record<string, unknown> = {
    id: p.id,
    expires_at: p.expiresAt,
    expired: view.expired,
    multiple: p.multiple,
    votes_count: view.tally.votesCount,
    voters_count: view.tally.votersCount,
  };
  if (view.viewer) {
    out.voted = view.viewer.voted;
    out.own_votes = view.viewer.ownVotes;
  }
  out.options = p.options.map((title, i) => ({
    title,
    votes_count: showTotals ? (view.tally.perOption.get(i) ?? 0) : null,
  }));
  out.emojis = emojis;
  return out;
}
