import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { DB } from "../../db/schema.ts";
import { isId } from "../../lib/ids.ts";

/** How long an `Idempotency-Key` gives back the first post (Mastodon: an hour). */
const IDEMPOTENCY_TTL_MS = 60 * 60 * 1000;

/**
 * One account's `Idempotency-Key` for posts or scheduled posts (the two never answer each
 * other, as in Mastodon). Undefined when no key was given.
 */
export function idempotencyKeyOf(kind: "status" | "scheduled", accountId: string, key: string | undefined) {
  return key ? `idempotency:${kind}:${accountId}:${key}` : undefined;
}

/** The id the key was taken for, while it lives. */
export async function idempotentId(ctx: AppContext, key: string): Promise<string | undefined> {
  const id = await ctx.repos.kv.get(key, new Date().toISOString());
  return id && isId(id) ? id : undefined;
}

/**
 * Takes the key for the post `id` inside the transaction that stores the post, so the two
 * commit or roll back together: a retry after any failure either finds both or neither. False
 * when another request holds the key (it committed first, or waits to); the caller stores
 * nothing then and answers that request's post.
 */
export function claimIdempotencyKey(ctx: AppContext, trx: Kysely<DB>, key: string, id: string, now: Date) {
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString();
  return ctx.repos.kv.claim(key, id, expiresAt, now.toISOString(), trx);
}
