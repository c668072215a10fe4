import type { AppContext } from "../../context.ts";
import type { AdminTag } from "../../db/repositories/admin-tags.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import { isHashtagName, tagsJson } from "../statuses/tags.ts";
import { refreshAllowed } from "../trends/allowed.ts";
import { logAction, type Moderator } from "./action-log.ts";

export type { AdminTag };

/** What a moderator may change on a tag (absent: unchanged; null: back to the default). */
export interface TagUpdate {
  displayName?: string;
  trendable?: boolean | null;
  usable?: boolean | null;
  listable?: boolean | null;
}

/** `GET /api/v1/admin/tags`: every tag, newest first. */
export function listTags(ctx: AppContext, window: IdWindow): Promise<AdminTag[]> {
  return ctx.repos.adminTags.page(window);
}

/** One tag by id; 404 when there is none. */
export async function findTag(ctx: AppContext, id: string): Promise<AdminTag> {
  const tag = isId(id) ? await ctx.repos.adminTags.byId(id) : undefined;
  if (!tag) throw notFound();
  return tag;
}

/**
 * Mastodon's Admin::Tag entities: the Tag (with its week of history) plus the switches, unset
 * ones as their defaults (usable and listable: yes; trendable: no, as Mastodon's
 * `trendable_by_default` is off), and `requires_review` until a moderator has changed the tag.
 */
export async function adminTagsJson(
  ctx: AppContext,
  tags: readonly AdminTag[],
  viewerId: string,
): Promise<Record<string, unknown>[]> {
  const base = await tagsJson(ctx, tags, viewerId);
  return tags.map((tag, i) => ({
    ...base[i],
    trendable: tag.trendable ?? false,
    usable: tag.usable ?? true,
    requires_review: tag.reviewedAt === null,
    listable: tag.listable ?? true,
  }));
}

/** Mastodon's validation of a new display name: a hashtag, and the same tag once normalised. */
function displayNameErrors(tag: AdminTag, displayName: string): string[] {
  const errors: string[] = [];
  if (!isHashtagName(displayName)) errors.push("Display name is invalid");
  if (normalizeHashtag(displayName) !== tag.name) errors.push("Display name does not match the previous name");
  return errors;
}

const describe = (v: boolean | null | undefined) => (v === null ? "default" : v ? "yes" : "no");

/**
 * `PUT /api/v1/admin/tags/:id`: changes the display name (only its case or accents: it must stay
 * the same tag, else 422) and the switches, marks the tag reviewed, and logs `update`/`Tag`.
 */
export async function updateTag(ctx: AppContext, by: Moderator, id: string, changes: TagUpdate): Promise<AdminTag> {
  const tag = await findTag(ctx, id);
  if (changes.displayName !== undefined) {
    const errors = displayNameErrors(tag, changes.displayName);
    if (errors.length > 0) throw new ApiError(422, `Validation failed: ${errors.join(", ")}`);
  }
  const now = new Date().toISOString();
  const said = [
    changes.displayName !== undefined ? `display name ${changes.displayName}` : undefined,
    changes.usable !== undefined ? `usable: ${describe(changes.usable)}` : undefined,
    changes.listable !== undefined ? `listable: ${describe(changes.listable)}` : undefined,
    changes.trendable !== undefined ? `trendable: ${describe(changes.trendable)}` : undefined,
  ].filter((x) => x !== undefined);
  const result = await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.adminTags.update(tag.id, { ...changes, reviewedAt: now, updatedAt: now }, trx);
    const name = changes.displayName ?? tag.displayName;
    await logAction(
      ctx,
      by,
      {
        action: "update",
        targetType: "Tag",
        targetId: tag.id,
        humanIdentifier: name,
        summary: `updated the hashtag #${name}${said.length > 0 ? ` (${said.join(", ")})` : ""}`,
      },
      trx,
    );
    const updated = await ctx.repos.adminTags.byId(tag.id, trx);
    if (!updated) throw notFound();
    return updated;
  });
  // Whether the tag may trend follows its switches at once (not at the next scoring).
  if (changes.trendable !== undefined || changes.usable !== undefined) await refreshAllowed(ctx);
  return result;
}

/**
 * Mastodon's DisallowedHashtagsValidator: a local post (or edit) using a tag moderators made
 * unusable is refused with 422, naming the tags.
 */
export async function checkUsableTags(ctx: AppContext, names: readonly string[]): Promise<void> {
  const disallowed = await ctx.repos.adminTags.unusable(names);
  if (disallowed.length === 0) return;
  const what = disallowed.length === 1 ? "contained a disallowed hashtag" : "contained the disallowed hashtags";
  throw new ApiError(422, `Validation failed: Text ${what}: ${disallowed.join(", ")}`);
}
