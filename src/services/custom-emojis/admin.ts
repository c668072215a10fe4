import type { AppContext } from "../../context.ts";
import type { CustomEmoji, EmojiListFilter } from "../../db/repositories/custom-emojis.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { logAction, type Moderator } from "../moderation/action-log.ts";
import { fetchBytes, RemoteFetchError } from "../remote/fetch-bytes.ts";
import { addCustomEmoji, deleteCustomEmoji, EMOJI_MAX_BYTES } from "./manage.ts";

/**
 * The moderation panel's custom emoji management (Mastodon's Admin::CustomEmojisController):
 * listing local and remote emojis, categories, enabling and disabling, copying a remote emoji to
 * this server, deleting. Each change is written to the action log (`update`, `enable`, `disable`,
 * `copy`, `destroy` on a `CustomEmoji`); adding and deleting local ones go through manage.ts.
 */

export type { CustomEmoji };

export type EmojiFilter = EmojiListFilter;

export const EMOJI_PAGE_SIZE = 50;

/** One page of emojis, local first then by domain and shortcode (offset paging). */
export function listEmojis(
  ctx: AppContext,
  filter: EmojiFilter,
  offset: number,
  limit = EMOJI_PAGE_SIZE,
): Promise<CustomEmoji[]> {
  return ctx.repos.customEmojis.page(filter, offset, limit);
}

/** The emoji, or a 404. */
export async function findEmoji(ctx: AppContext, id: string): Promise<CustomEmoji> {
  const emoji = isId(id) ? await ctx.repos.customEmojis.getById(id) : undefined;
  if (!emoji) throw notFound();
  return emoji;
}

/** Where the emoji's image is shown from: the stored file, else the remote URL. */
export function emojiImageUrl(ctx: AppContext, e: CustomEmoji): string {
  const key = e.staticKey ?? e.imageKey;
  return key ? ctx.blobs.url(key) : (e.imageRemoteUrl ?? "");
}

/** The categories in use by local emojis, sorted. */
export function emojiCategories(ctx: AppContext): Promise<string[]> {
  return ctx.repos.customEmojis.localCategories();
}

const label = (e: CustomEmoji) => (e.domain ? `:${e.shortcode}@${e.domain}:` : `:${e.shortcode}:`);

const emojiRecord = (action: string, e: CustomEmoji, verb: string) => ({
  action,
  targetType: "CustomEmoji",
  targetId: e.id,
  humanIdentifier: label(e),
  summary: `${verb} the custom emoji ${label(e)}`,
});

/** Sets a local emoji's category (empty: none) and whether the picker lists it. */
export async function updateEmoji(
  ctx: AppContext,
  by: Moderator,
  id: string,
  input: { category: string; visibleInPicker: boolean },
): Promise<CustomEmoji> {
  const emoji = await findEmoji(ctx, id);
  if (emoji.domain !== null) throw new ApiError(422, "Validation failed: Only local emojis can be changed");
  const category = input.category.trim() || null;
  if (category !== null && category.length > 64) {
    throw new ApiError(422, "Validation failed: Category is too long (maximum is 64 characters)");
  }
  if (category === emoji.category && input.visibleInPicker === emoji.visibleInPicker) return emoji;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("custom_emojis")
      .set({ category, visible_in_picker: input.visibleInPicker, updated_at: new Date().toISOString() })
      .where("id", "=", emoji.id)
      .execute();
    await logAction(ctx, by, emojiRecord("update", emoji, "changed"), trx);
  });
  return findEmoji(ctx, id);
}

/** Enables or disables an emoji (a disabled one is not shown in posts or listed). */
export async function setEmojiDisabled(
  ctx: AppContext,
  by: Moderator,
  id: string,
  disabled: boolean,
): Promise<CustomEmoji> {
  const emoji = await findEmoji(ctx, id);
  if (emoji.disabled === disabled) return emoji;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("custom_emojis")
      .set({ disabled, updated_at: new Date().toISOString() })
      .where("id", "=", emoji.id)
      .execute();
    await logAction(
      ctx,
      by,
      emojiRecord(disabled ? "disable" : "enable", emoji, disabled ? "disabled" : "enabled"),
      trx,
    );
  });
  return findEmoji(ctx, id);
}

/**
 * Copies a remote emoji to this server under the same shortcode (Mastodon's "copy"): its stored
 * image, else the image fetched from its server; checked and processed as any new emoji.
 */
export async function copyEmoji(ctx: AppContext, by: Moderator, id: string): Promise<CustomEmoji> {
  const emoji = await findEmoji(ctx, id);
  if (emoji.domain === null) throw new ApiError(422, "Validation failed: The emoji is already local");
  let data: Uint8Array | undefined;
  if (emoji.imageKey) data = (await ctx.blobs.get(emoji.imageKey))?.data;
  if (!data && emoji.imageRemoteUrl) {
    try {
      data = (
        await fetchBytes(ctx, emoji.imageRemoteUrl, {
          maxBytes: EMOJI_MAX_BYTES,
          timeoutMs: 15_000,
          accept: "image/png,image/gif,image/webp",
        })
      ).bytes;
    } catch (e) {
      if (!(e instanceof RemoteFetchError)) throw e;
    }
  }
  if (!data) throw new ApiError(422, "Validation failed: The image could not be fetched");
  const copy = await addCustomEmoji(ctx, { shortcode: emoji.shortcode, data, category: emoji.category }, by);
  await logAction(ctx, by, emojiRecord("copy", emoji, "copied"));
  return copy;
}

/** Deletes an emoji: a local one with its files (manage.ts), a remote one's row and cached files. */
export async function deleteEmoji(ctx: AppContext, by: Moderator, id: string): Promise<void> {
  const emoji = await findEmoji(ctx, id);
  if (emoji.domain === null) {
    await deleteCustomEmoji(ctx, emoji.shortcode, by);
    return;
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("custom_emojis").where("id", "=", emoji.id).execute();
    await logAction(ctx, by, emojiRecord("destroy", emoji, "deleted"), trx);
  });
  for (const key of [emoji.imageKey, emoji.staticKey]) {
    if (!key) continue;
    try {
      await ctx.blobs.delete(key);
    } catch {
      // a stray cached file is harmless
    }
  }
}

export { addCustomEmoji };
