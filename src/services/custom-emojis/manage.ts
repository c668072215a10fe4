import type { AppContext } from "../../context.ts";
import type { CustomEmoji } from "../../db/repositories/custom-emojis.ts";
import { randomToken } from "../../lib/crypto.ts";
import { ApiError } from "../../lib/errors.ts";
import { sharpOf } from "../../lib/sharp.ts";
import { shortcodeProblem } from "../../lib/text/shortcodes.ts";
import { MAX_IMAGE_PIXELS } from "../media/process-image.ts";
import { sniffMediaType } from "../media/sniff.ts";
import { COMMAND_LINE, logAction, type Moderator } from "../moderation/action-log.ts";

/** Mastodon's limit for a custom emoji's file. */
export const EMOJI_MAX_BYTES = 256 * 1024;
/** The static image fits in this square (an emoji is drawn at text size; originals stay as given). */
const STATIC_MAX_SIDE = 400;
const EMOJI_TYPES = new Set(["image/png", "image/gif", "image/webp"]);
const CATEGORY_MAX_LENGTH = 64;

export interface NewCustomEmoji {
  shortcode: string;
  data: Uint8Array;
  category?: string | null;
  visibleInPicker?: boolean;
}

interface EmojiImage {
  contentType: string;
  extension: string;
  staticPng: Uint8Array;
}

const invalid = (message: string) => new ApiError(422, `Validation failed: ${message}`);

/**
 * Checks an emoji image (PNG, GIF or WebP by its bytes, at most 256 KiB, decodable) and makes its
 * static version: the first frame as a PNG, within 400x400.
 */
async function processEmojiImage(data: Uint8Array): Promise<EmojiImage> {
  if (data.byteLength === 0) throw invalid("Image can't be blank");
  if (data.byteLength > EMOJI_MAX_BYTES) throw invalid("Image file size must be less than 256 KB");
  const type = sniffMediaType(data);
  if (!type || !EMOJI_TYPES.has(type.contentType)) {
    throw invalid("Image content type is invalid (PNG, GIF or WebP only)");
  }
  try {
    const image = await sharpOf(data, { animated: false, failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS });
    const png = await image
      .resize(STATIC_MAX_SIDE, STATIC_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .png()
      .toBuffer();
    return { contentType: type.contentType, extension: type.extension, staticPng: new Uint8Array(png) };
  } catch {
    throw invalid("Image could not be read as an image");
  }
}

async function deleteBlobs(ctx: AppContext, keys: readonly (string | null)[]): Promise<void> {
  for (const key of keys) {
    if (!key) continue;
    try {
      await ctx.blobs.delete(key);
    } catch {
      // A stray file is harmless; the row is what makes an emoji exist.
    }
  }
}

const emojiRecord = (action: string, id: string, shortcode: string, verb: string) => ({
  action,
  targetType: "CustomEmoji",
  targetId: id,
  humanIdentifier: `:${shortcode}:`,
  summary: `${verb} the custom emoji :${shortcode}:`,
});

/**
 * Adds a local custom emoji. Bad input is a 422 that stores nothing: the shortcode and image are
 * checked before any file is written, and the files go again if the row cannot be inserted.
 * Written to the action log (`create` `CustomEmoji`) as done by `by` (the command line unless said).
 */
export async function addCustomEmoji(
  ctx: AppContext,
  input: NewCustomEmoji,
  by: Moderator = COMMAND_LINE,
): Promise<CustomEmoji> {
  const problem = shortcodeProblem(input.shortcode);
  if (problem) throw invalid(problem);
  const category = input.category?.trim() || null;
  if (category !== null && category.length > CATEGORY_MAX_LENGTH) {
    throw invalid(`Category is too long (maximum is ${CATEGORY_MAX_LENGTH} characters)`);
  }
  const taken = () => invalid(`Shortcode :${input.shortcode}: has already been taken`);
  if (await ctx.repos.customEmojis.getLocal(input.shortcode)) throw taken();
  const image = await processEmojiImage(input.data);

  const id = ctx.ids.next();
  const token = randomToken(12);
  const imageKey = `custom_emojis/images/${id}/original/${token}.${image.extension}`;
  const staticKey = `custom_emojis/images/${id}/static/${token}.png`;
  const now = new Date().toISOString();
  let inserted = false;
  try {
    await ctx.blobs.put(imageKey, input.data, image.contentType);
    await ctx.blobs.put(staticKey, image.staticPng, "image/png");
    inserted = await ctx.repos.customEmojis.insert({
      id,
      shortcode: input.shortcode,
      domain: null,
      image_key: imageKey,
      static_key: staticKey,
      image_content_type: image.contentType,
      image_file_size: input.data.byteLength,
      category,
      visible_in_picker: input.visibleInPicker ?? true,
      disabled: false,
      created_at: now,
      updated_at: now,
    });
  } finally {
    if (!inserted) await deleteBlobs(ctx, [imageKey, staticKey]);
  }
  if (!inserted) throw taken();
  const emoji = await ctx.repos.customEmojis.getLocal(input.shortcode);
  if (!emoji) throw new Error("custom emoji vanished after insert");
  await logAction(ctx, by, emojiRecord("create", emoji.id, emoji.shortcode, "added"));
  return emoji;
}

/** Deletes a local custom emoji and its files (logged as `destroy` `CustomEmoji`); false when there is none by that shortcode. */
export async function deleteCustomEmoji(
  ctx: AppContext,
  shortcode: string,
  by: Moderator = COMMAND_LINE,
): Promise<boolean> {
  const emoji = await ctx.repos.customEmojis.getLocal(shortcode);
  if (!emoji) return false;
  if (!(await ctx.repos.customEmojis.delete(emoji.id))) return false;
  await logAction(ctx, by, emojiRecord("destroy", emoji.id, emoji.shortcode, "deleted"));
  await deleteBlobs(ctx, [emoji.imageKey, emoji.staticKey]);
  return true;
}
