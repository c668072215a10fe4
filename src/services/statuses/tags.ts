import type { AppContext } from "../../context.ts";
import { notFound } from "../../lib/errors.ts";
import { idAtTime } from "../../lib/ids.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import { tagUrl } from "../../serializers/status.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

// Mastodon's hashtag name rule: word characters (with `·` and ZWNJ inside), at least one letter or `_`.
const HASHTAG_NAME = /^(?=.*[\p{L}_])[\p{L}\p{M}\p{N}_]([\p{L}\p{M}\p{N}_·\u200c]*[\p{L}\p{M}\p{N}_])?$/u;

/** Whether `name` (without `#`) can be a hashtag, and has a name to be stored by once normalised. */
export function isHashtagName(name: string): boolean {
  return name.length > 0 && name.length <= 200 && HASHTAG_NAME.test(name) && normalizeHashtag(name) !== "";
}

/** Seven days, newest first: each day's start (UTC, as Mastodon's history `day`) and its uses. */
export function history(
  today: number,
  uses: ReadonlyMap<string, { uses: number; accounts: number }> | undefined,
): { day: string; uses: string; accounts: string }[] {
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(today - i * DAY_MS);
    const u = uses?.get(day.toISOString().slice(0, 10));
    return { day: String(day.getTime() / 1000), uses: String(u?.uses ?? 0), accounts: String(u?.accounts ?? 0) };
  });
}

export const startOfToday = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
};

/**
 * Mastodon's Tag entities with their 7-day history (newest day first) computed from the public
 * statuses using them, in one query for all; a signed-in viewer (`viewerId`) also gets
 * `following` and `featuring`.
 */
export async function tagsJson(
  ctx: AppContext,
  tags: readonly { id: string; name: string; displayName: string }[],
  viewerId: string | undefined,
): Promise<Record<string, unknown>[]> {
  const today = startOfToday();
  const since = new Date(today - 6 * DAY_MS);
  const ids = tags.map((t) => t.id);
  const [uses, states] = await Promise.all([
    ctx.repos.tagCuration.tagUses(ids, since.toISOString(), idAtTime(since)),
    viewerId === undefined ? undefined : ctx.repos.tagCuration.tagStates(viewerId, ids),
  ]);
  return tags.map((tag) => {
    const out: Record<string, unknown> = {
      id: tag.id,
      name: tag.displayName,
      url: tagUrl(ctx.config.baseUrl, tag.name),
      history: history(today, uses.get(tag.id)),
    };
    if (states !== undefined) {
      out.following = states.following.has(tag.id);
      out.featuring = states.featuring.has(tag.id);
    }
    return out;
  });
}

/** One Tag entity (see `tagsJson`). */
export async function tagJson(
  ctx: AppContext,
  tag: { id: string; name: string; displayName: string },
  viewerId: string | undefined,
): Promise<Record<string, unknown>> {
  const [json] = await tagsJson(ctx, [tag], viewerId);
  return json as Record<string, unknown>;
}

/**
 * The Tag of a name no post has used yet, as Mastodon renders a tag it has not stored (empty `id`,
 * seven days of no use, the name as asked for and the URL of its normalised name);
 * `following`/`featuring` (false) only for a signed-in viewer. An impossible name is 404.
 */
export function unusedTagJson(ctx: AppContext, name: string, signedIn: boolean): Record<string, unknown> {
  if (!isHashtagName(name)) throw notFound();
  const tag: Record<string, unknown> = {
    id: "",
    name,
    url: tagUrl(ctx.config.baseUrl, normalizeHashtag(name)),
    history: history(startOfToday(), undefined),
  };
  if (signedIn) {
    tag.following = false;
    tag.featuring = false;
  }
  return tag;
}

/** The Tag named `name` (Mastodon's `GET /api/v1/tags/:name`), stored or not yet used (see `unusedTagJson`). */
export async function tagJsonByName(
  ctx: AppContext,
  name: string,
  viewerId: string | undefined,
  signedIn: boolean,
): Promise<Record<string, unknown>> {
  const tag = await ctx.repos.statuses.getTag(name);
  if (!tag) return unusedTagJson(ctx, name, signedIn);
  return tagJson(ctx, tag, viewerId);
}
