import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { TagLinkRow, TagRef } from "../../db/repositories/tag-curation.ts";
import { enqueueDelivery } from "../../federation/deliveries.ts";
import { ApiError, notFound, unprocessable } from "../../lib/errors.ts";
import { ACCOUNT_LIMITS } from "../../lib/limits.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { serializeFeaturedTag } from "../../serializers/featured-tag.ts";
import { isHashtagName, tagJson, tagsJson, unusedTagJson } from "../statuses/tags.ts";

/** The tag a `/api/v1/tags/:name/...` path names: 404 when the name cannot be a hashtag. */
function checkedName(name: string): string {
  if (!isHashtagName(name)) throw notFound();
  return name;
}

function createTag(ctx: AppContext, name: string): Promise<TagRef> {
  return ctx.repos.tagCuration.findOrCreateTag(name, () => ctx.ids.next(), new Date().toISOString());
}

// Followed hashtags

/** `POST /api/v1/tags/:name/follow`: creates the tag if needed; following again changes nothing. */
export async function followTag(ctx: AppContext, account: Account, name: string): Promise<Record<string, unknown>> {
  const tag = await createTag(ctx, checkedName(name));
  await ctx.repos.tagCuration.follow({
    id: ctx.ids.next(),
    account_id: account.id,
    tag_id: tag.id,
    created_at: new Date().toISOString(),
  });
  return tagJson(ctx, tag, account.id);
}

/** `POST /api/v1/tags/:name/unfollow`: succeeds whether or not the tag was followed (or exists). */
export async function unfollowTag(ctx: AppContext, account: Account, name: string): Promise<Record<string, unknown>> {
  const tag = await ctx.repos.statuses.getTag(checkedName(name));
  if (!tag) return unusedTagJson(ctx, name, true);
  await ctx.repos.tagCuration.unfollow(account.id, tag.id);
  return tagJson(ctx, tag, account.id);
}

/** A page of the tags the account follows, paged by the follow's id (clients follow the Link header). */
export function followedTagsPage(ctx: AppContext, accountId: string, window: IdWindow): Promise<TagLinkRow[]> {
  return ctx.repos.tagCuration.followedPage(accountId, window);
}

/** Tags of `rows` as Tag entities for `viewerId` (one query for the history of all). */
export function linkedTagsJson(
  ctx: AppContext,
  rows: readonly TagLinkRow[],
  viewerId: string,
): Promise<Record<string, unknown>[]> {
  return tagsJson(
    ctx,
    rows.map((r) => r.tag),
    viewerId,
  );
}

// Featured hashtags

/** The FeaturedTag entities of `account`'s featured tags, with their use in its posts read now. */
export async function featuredTagsJson(ctx: AppContext, account: Account): Promise<Record<string, unknown>[]> {
  const rows = await ctx.repos.tagCuration.featured(account.id);
  return withUsage(ctx, account, rows);
}

async function withUsage(
  ctx: AppContext,
  account: Account,
  rows: readonly TagLinkRow[],
): Promise<Record<string, unknown>[]> {
  const usage = await ctx.repos.tagCuration.usage(
    account.id,
    rows.map((r) => r.tag.id),
  );
  return rows.map((r) => {
    const u = usage.get(r.tag.id);
    return serializeFeaturedTag(ctx.config.baseUrl, {
      id: r.id,
      name: r.tag.name,
      displayName: r.tag.displayName,
      username: account.username,
      statusesCount: u?.statusesCount ?? 0,
      lastStatusAt: u?.lastStatusAt ?? null,
    });
  });
}

const LIMIT_REACHED = `Validation failed: You have already featured the maximum number of hashtags (${ACCOUNT_LIMITS.maxFeaturedTags})`;

/** Features the tag of `name` (creating it), at most `max_featured_tags`; the featured tag's id. */
async function feature(ctx: AppContext, account: Account, tag: TagRef): Promise<string> {
  const id = await ctx.repos.tagCuration.feature(
    { id: ctx.ids.next(), account_id: account.id, tag_id: tag.id, created_at: new Date().toISOString() },
    ACCOUNT_LIMITS.maxFeaturedTags,
  );
  if (id === undefined) throw unprocessable(LIMIT_REACHED);
  // Featuring again sends the Add again, which remote servers take as a no-op.
  await enqueueDelivery(ctx, { type: "featured-tag.add", accountId: account.id, tag: tag.displayName });
  return id;
}

/**
 * `POST /api/v1/featured_tags` (`name`, with or without `#`): the FeaturedTag, the existing one
 * when the tag is featured already. A missing name is a 400, an impossible one a 422.
 */
export async function createFeaturedTag(
  ctx: AppContext,
  account: Account,
  rawName: unknown,
): Promise<Record<string, unknown>> {
  if (rawName === undefined || rawName === null || rawName === "") {
    throw new ApiError(400, "param is missing or the value is empty: name");
  }
  const name = typeof rawName === "string" ? rawName.trim().replace(/^#/, "") : "";
  if (!isHashtagName(name)) throw unprocessable("Validation failed: Name is invalid");
  const tag = await createTag(ctx, name);
  const id = await feature(ctx, account, tag);
  const row = await ctx.repos.tagCuration.featuredById(account.id, id);
  if (!row) throw notFound();
  const [json] = await withUsage(ctx, account, [row]);
  return json;
}

/** `DELETE /api/v1/featured_tags/:id`: 404 unless it is one of the caller's. */
export async function deleteFeaturedTag(ctx: AppContext, account: Account, id: string): Promise<void> {
  const row = await ctx.repos.tagCuration.featuredById(account.id, id);
  if (!row || !(await ctx.repos.tagCuration.unfeatureById(account.id, id))) throw notFound();
  await enqueueDelivery(ctx, { type: "featured-tag.remove", accountId: account.id, tag: row.tag.displayName });
}

/** `POST /api/v1/tags/:name/feature`: the Tag, with `featuring`; featuring again changes nothing. */
export async function featureTag(ctx: AppContext, account: Account, name: string): Promise<Record<string, unknown>> {
  const tag = await createTag(ctx, checkedName(name));
  await feature(ctx, account, tag);
  return tagJson(ctx, tag, account.id);
}

/** `POST /api/v1/tags/:name/unfeature`: succeeds whether or not the tag was featured (or exists). */
export async function unfeatureTag(ctx: AppContext, account: Account, name: string): Promise<Record<string, unknown>> {
  const tag = await ctx.repos.statuses.getTag(checkedName(name));
  if (!tag) return unusedTagJson(ctx, name, true);
  const featured = (await ctx.repos.tagCuration.featured(account.id)).some((r) => r.tag.id === tag.id);
  await ctx.repos.tagCuration.unfeatureTag(account.id, tag.id);
  if (featured) {
    await enqueueDelivery(ctx, { type: "featured-tag.remove", accountId: account.id, tag: tag.displayName });
  }
  return tagJson(ctx, tag, account.id);
}

/** `GET /api/v1/featured_tags/suggestions`: the caller's most used tags it does not feature yet. */
export async function featuredTagSuggestions(ctx: AppContext, account: Account): Promise<Record<string, unknown>[]> {
  const tags = await ctx.repos.tagCuration.suggestions(account.id, ACCOUNT_LIMITS.maxFeaturedTags);
  return tagsJson(ctx, tags, account.id);
}
