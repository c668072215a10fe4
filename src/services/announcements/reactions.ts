import type { AppContext } from "../../context.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { publishReaction } from "./events.ts";

/** Distinct reactions an announcement may have (Mastodon's ReactionValidator::LIMIT). */
export const REACTION_LIMIT = 8;

// Compiled on first use: the Unicode emoji property set costs about 15 ms at module load.
let EMOJI: RegExp | undefined;

/**
 * Whether `name` is one emoji as Mastodon's picker knows them: a fully qualified emoji sequence
 * (skin tones, flags, keycaps, families), or one written without its variation selector.
 */
export function isUnicodeEmoji(name: string): boolean {
  EMOJI ??= /^\p{RGI_Emoji}$/v;
  return EMOJI.test(name) || EMOJI.test(`${name}\uFE0F`);
}

async function published(ctx: AppContext, id: string) {
  const a = await ctx.repos.announcements.getPublished(id);
  if (!a) throw notFound();
  return a;
}

/**
 * `PUT /api/v1/announcements/:id/reactions/:name`: a unicode emoji or a local custom emoji's
 * shortcode; at most 8 different ones per announcement; again the same is a 422, as Mastodon.
 */
export async function addReaction(ctx: AppContext, accountId: string, id: string, name: string): Promise<void> {
  const a = await published(ctx, id);
  const [custom] = await ctx.repos.customEmojis.findEnabled([{ domain: null, shortcodes: [name] }]);
  if (!custom && !isUnicodeEmoji(name)) throw new ApiError(422, "Validation failed: Name is not a recognized emoji");
  const added = await ctx.db.transaction().execute(async (trx) => {
    const names = await ctx.repos.announcements.reactionNames(a.id, trx);
    if (!names.includes(name) && names.length >= REACTION_LIMIT) {
      throw new ApiError(422, "Validation failed: Limit of different reactions reached");
    }
    return ctx.repos.announcements.addReaction(
      { id: ctx.ids.next(), accountId, announcementId: a.id, name, customEmojiId: custom?.id ?? null },
      new Date().toISOString(),
      trx,
    );
  });
  if (!added) throw new ApiError(422, "Duplicate record");
  await publishReaction(ctx, a.id, name);
}

/** `DELETE /api/v1/announcements/:id/reactions/:name`: 404 when the account had no such reaction. */
export async function removeReaction(ctx: AppContext, accountId: string, id: string, name: string): Promise<void> {
  const a = await published(ctx, id);
  if (!(await ctx.repos.announcements.removeReaction(accountId, a.id, name))) throw notFound();
  await publishReaction(ctx, a.id, name);
}

/** `POST /api/v1/announcements/:id/dismiss`: marks it read for the account. */
export async function dismissAnnouncement(ctx: AppContext, accountId: string, id: string): Promise<void> {
  const a = await published(ctx, id);
  await ctx.repos.announcements.dismiss(accountId, a.id, new Date().toISOString());
}
