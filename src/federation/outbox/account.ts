import { randomUUID } from "node:crypto";
import type { Context } from "@fedify/fedify";
import { Add, Delete, Move, PUBLIC_COLLECTION, Remove, Update } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { buildLocalActor } from "./actor.ts";
import { HashtagAdd, HashtagRemove } from "./hashtag-add.ts";

/**
 * `Update` of a local actor after a profile change, carrying the whole actor as its dispatcher
 * serves it (none for a deleted account).
 */
export async function updateActor(fctx: Context<AppContext>, account: Account): Promise<Update | null> {
  if (account.suspensionOrigin === "deleted") return null;
  const actor = await buildLocalActor(fctx, account);
  const uri = fctx.getActorUri(account.username);
  return new Update({
    id: new URL(`${uri.href}#updates/${Date.parse(account.updatedAt)}`),
    actor: uri,
    published: Temporal.Instant.from(account.updatedAt),
    to: PUBLIC_COLLECTION,
    cc: fctx.getFollowersUri(account.username),
    object: actor,
  });
}

/** `Add` or `Remove` of a post in the `featured` collection (pin, unpin). */
export function featuredChange(
  fctx: Context<AppContext>,
  add: boolean,
  account: Account,
  status: Status,
): Add | Remove {
  const actor = fctx.getActorUri(account.username);
  const values = {
    id: new URL(`${actor.href}#${add ? "add" : "remove"}/${randomUUID()}`),
    actor,
    to: PUBLIC_COLLECTION,
    cc: fctx.getFollowersUri(account.username),
    object: new URL(status.uri),
    target: fctx.getFeaturedUri(account.username),
  };
  return add ? new Add(values) : new Remove(values);
}

/**
 * `Add` or `Remove` of a featured hashtag. The target is the `featured` collection, as Mastodon
 * sends and expects it (its inbox tells pins from tags by the object's type).
 */
export function featuredTagChange(
  fctx: Context<AppContext>,
  add: boolean,
  account: Account,
  tag: string,
): Add | Remove {
  const actor = fctx.getActorUri(account.username);
  const values = {
    id: new URL(`${actor.href}#${add ? "add" : "remove"}/${randomUUID()}`),
    actor,
    to: PUBLIC_COLLECTION,
    cc: fctx.getFollowersUri(account.username),
    object: new URL(`${fctx.data.config.baseUrl}/tags/${encodeURIComponent(tag)}`),
    target: fctx.getFeaturedUri(account.username),
  };
  return add ? new HashtagAdd(values) : new HashtagRemove(values);
}

/** `Move` of a local account to `targetUri`, sent to its followers. */
export function move(fctx: Context<AppContext>, account: Account, targetUri: string): Move {
  const actor = fctx.getActorUri(account.username);
  return new Move({
    id: new URL(`${actor.href}#moves/${randomUUID()}`),
    actor,
    to: fctx.getFollowersUri(account.username),
    object: actor,
    target: new URL(targetUri),
  });
}

/**
 * `Delete` of the actor itself, when its account was deleted here (Mastodon's delete_actor):
 * signed with the keys the deleted account keeps for this, addressed to the public.
 */
export function deleteActor(fctx: Context<AppContext>, account: Account): Delete {
  const actor = fctx.getActorUri(account.username);
  return new Delete({ id: new URL(`${actor.href}#delete`), actor, to: PUBLIC_COLLECTION, object: actor });
}
