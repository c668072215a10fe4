import type { Context } from "hono";
import type { Account } from "../../../db/repositories/accounts.ts";
import { notFound } from "../../../lib/errors.ts";
import type { HonoEnv } from "../../types.ts";

/**
 * Mastodon entities with the values that are true while the feature behind them is not built:
 * no follows, blocks, mutes, posts or tag uses exist yet.
 */

/** The one message of every write that cannot work yet (see the README's compatibility section). */
export const UNAVAILABLE = "This feature is not available on this server yet";

/** A Relationship with nobody: every flag false, no note. */
export function emptyRelationship(id: string): Record<string, unknown> {
  return {
    id,
    following: false,
    showing_reblogs: false,
    notifying: false,
    languages: null,
    followed_by: false,
    blocking: false,
    blocked_by: false,
    muting: false,
    muting_notifications: false,
    muting_expires_at: null,
    requested: false,
    requested_by: false,
    domain_blocking: false,
    endorsed: false,
    note: "",
  };
}

// Mastodon's hashtag name rule: word characters (with `·` and ZWNJ inside), at least one letter or `_`.
const HASHTAG_NAME = /^(?=.*[\p{L}_])[\p{L}\p{M}\p{N}_]([\p{L}\p{M}\p{N}_·\u200c]*[\p{L}\p{M}\p{N}_])?$/u;
const DAY_MS = 86_400_000;

/** Seven days of tag history, newest first, with no uses (no post exists yet). */
function emptyHistory(now = Date.now()): { day: string; uses: string; accounts: string }[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: 7 }, (_, i) => ({
    day: String((today - i * DAY_MS) / 1000),
    uses: "0",
    accounts: "0",
  }));
}

/**
 * The Tag of a name no post has used yet, as Mastodon renders a tag it has not stored (empty `id`);
 * `following`/`featuring` only for a signed-in viewer. An impossible name is 404.
 */
export function unusedTag(c: Context<HonoEnv>): Record<string, unknown> {
  const name = c.req.param("name") ?? "";
  if (name.length > 200 || !HASHTAG_NAME.test(name)) throw notFound();
  const base = c.env.ctx.config.baseUrl;
  const tag: Record<string, unknown> = {
    id: "",
    name,
    url: `${base}/tags/${encodeURIComponent(name.toLowerCase())}`,
    history: emptyHistory(),
  };
  if (c.get("auth")?.user) {
    tag.following = false;
    tag.featuring = false;
  }
  return tag;
}

/** The Profile entity (4.6) of the signed-in account, from what the account row holds. */
export function profileOf(c: Context<HonoEnv>, a: Account): Record<string, unknown> {
  const blobs = c.env.ctx.blobs;
  const avatar = a.avatarPath ? blobs.url(a.avatarPath) : null;
  const header = a.headerPath ? blobs.url(a.headerPath) : null;
  return {
    id: a.id,
    display_name: a.displayName,
    note: a.noteSource,
    fields: a.fieldsSource.map((f, i) => ({
      name: f.name,
      value: f.value,
      verified_at: a.fields[i]?.verified_at ?? null,
    })),
    avatar,
    avatar_static: avatar,
    avatar_description: "",
    header,
    header_static: header,
    header_description: "",
    locked: a.locked,
    bot: a.actorType === "Service" || a.actorType === "Application",
    hide_collections: a.hideCollections,
    discoverable: a.discoverable,
    indexable: a.indexable,
    show_media: true,
    show_media_replies: true,
    show_featured: true,
    attribution_domains: [],
  };
}
