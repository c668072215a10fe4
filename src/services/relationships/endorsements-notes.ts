import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { unprocessable } from "../../lib/errors.ts";
import { getVisibleAccount } from "../accounts/find-accounts.ts";
import { relationshipJson } from "./relationships.ts";

/** Mastodon's limit on a private note. */
export const NOTE_MAX_LENGTH = 2000;

/**
 * `POST /api/v1/accounts/:id/endorse` (and `pin`): features the account on the caller's profile.
 * As Mastodon, only an account the caller follows may be endorsed (a 422 otherwise, yourself
 * included); endorsing again changes nothing.
 */
export async function endorse(ctx: AppContext, account: Account, id: string): Promise<Record<string, unknown>> {
  const target = await getVisibleAccount(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    // Checked and pinned with the pair locked, so an unfollow running meanwhile (which deletes
    // the endorsement with the follow) comes wholly before or after.
    await ctx.repos.follows.lockPair(account.id, target.id, trx);
    const followed = await ctx.repos.follows.getFollow(account.id, target.id, trx);
    if (target.id === account.id || !followed) {
      throw unprocessable("Validation failed: You must be already following the person you want to endorse");
    }
    await ctx.repos.accountCuration.pin(
      {
        id: ctx.ids.next(),
        account_id: account.id,
        target_account_id: target.id,
        created_at: new Date().toISOString(),
      },
      trx,
    );
  });
  return relationshipJson(ctx, account.id, target.id);
}

/** `POST /api/v1/accounts/:id/unendorse` (and `unpin`): succeeds whether or not it was endorsed. */
export async function unendorse(ctx: AppContext, account: Account, id: string): Promise<Record<string, unknown>> {
  const target = await getVisibleAccount(ctx, id);
  await ctx.repos.accountCuration.unpin(account.id, target.id);
  return relationshipJson(ctx, account.id, target.id);
}

/**
 * `POST /api/v1/accounts/:id/note`: sets the caller's private note on the account (at most 2000
 * characters); an empty or missing `comment` deletes it, as Mastodon's `blank?`.
 */
export async function setNote(
  ctx: AppContext,
  account: Account,
  id: string,
  comment: string | undefined,
): Promise<Record<string, unknown>> {
  const target = await getVisibleAccount(ctx, id);
  if (comment === undefined || comment.trim() === "") {
    await ctx.repos.accountCuration.deleteNote(account.id, target.id);
  } else {
    if ([...comment].length > NOTE_MAX_LENGTH) {
      throw unprocessable(`Validation failed: Comment is too long (maximum is ${NOTE_MAX_LENGTH} characters)`);
    }
    await ctx.repos.accountCuration.setNote({
      id: ctx.ids.next(),
      account_id: account.id,
      target_account_id: target.id,
      comment,
      created_at: new Date().toISOString(),
    });
  }
  return relationshipJson(ctx, account.id, target.id);
}
