import type { AppContext } from "../../context.ts";
import type { BlockMuteRelations } from "../../db/repositories/relationships.ts";
import { hiddenPerson } from "../../policies/blocks.ts";
import { type RelationshipView, serializeRelationship } from "../../serializers/relationship.ts";

/** The viewer's blocks and mutes among `ids` (mutes that have expired count as absent). */
export function blockMuteRelations(
  ctx: AppContext,
  viewerId: string,
  ids: readonly string[],
): Promise<BlockMuteRelations> {
  return ctx.repos.relationships.blockMuteRelations(viewerId, [...new Set(ids)], new Date().toISOString());
}

/**
 * The accounts among `ids` a viewer is not shown in lists of people (who favourited or boosted a
 * post): those the viewer blocks or mutes, those that block the viewer, and those on a domain the
 * viewer blocks (unless followed).
 */
export async function hiddenAccounts(ctx: AppContext, viewerId: string, ids: readonly string[]): Promise<Set<string>> {
  const r = await blockMuteRelations(ctx, viewerId, ids);
  return new Set(ids.filter((id) => hiddenPerson(id, r)));
}

/** Whether `accountId` blocks `targetId` (Mastodon forbids favouriting and boosting a blocked author's posts). */
export async function isBlocking(ctx: AppContext, accountId: string, targetId: string): Promise<boolean> {
  return (await blockMuteRelations(ctx, accountId, [targetId])).blocking.has(targetId);
}

/** Relationships of the viewer with each of `ids`, in order, in a fixed number of queries. */
export async function loadRelationships(
  ctx: AppContext,
  viewerId: string,
  ids: readonly string[],
): Promise<RelationshipView[]> {
  const unique = [...new Set(ids)];
  const [bm, follows, endorsed, notes] = await Promise.all([
    blockMuteRelations(ctx, viewerId, ids),
    ctx.repos.relationships.followsBetween(viewerId, unique),
    ctx.repos.accountCuration.endorsedAmong(viewerId, unique),
    ctx.repos.accountCuration.notesAmong(viewerId, unique),
  ]);
  return ids.map((id) => ({
    id,
    following: follows.following.get(id),
    followedBy: follows.followedBy.has(id),
    requested: follows.requested.get(id),
    requestedBy: follows.requestedBy.has(id),
    blocking: bm.blocking.has(id),
    blockedBy: bm.blockedBy.has(id),
    muting: bm.muting.get(id),
    domainBlocking: bm.domainBlocking.has(id),
    endorsed: endorsed.has(id),
    note: notes.get(id) ?? "",
  }));
}

export async function relationshipsJson(
  ctx: AppContext,
  viewerId: string,
  ids: readonly string[],
): Promise<Record<string, unknown>[]> {
  return (await loadRelationships(ctx, viewerId, ids)).map(serializeRelationship);
}

/**
 * `GET /api/v1/accounts/relationships`: the Relationships with the existing accounts among `ids`,
 * in the order asked; suspended ones only when `withSuspended`.
 */
export async function relationshipsWithExisting(
  ctx: AppContext,
  viewerId: string,
  ids: readonly string[],
  withSuspended: boolean,
): Promise<Record<string, unknown>[]> {
  const found = new Map((await ctx.repos.accounts.getByIds(ids)).map((a) => [a.id, a]));
  const wanted = ids.filter((id) => {
    const a = found.get(id);
    return a !== undefined && (withSuspended || a.suspendedAt === null);
  });
  return relationshipsJson(ctx, viewerId, wanted);
}

export async function relationshipJson(
  ctx: AppContext,
  viewerId: string,
  id: string,
): Promise<Record<string, unknown>> {
  const [json] = await relationshipsJson(ctx, viewerId, [id]);
  return json;
}
