import { type Accept, Follow, type Reject } from "@fedify/vocab";
import type { Account } from "../../db/repositories/accounts.ts";
import { acceptRequest } from "../../services/follows/follow.ts";
import { removeFromListsOnUnfollow } from "../../services/lists/lists.ts";
import { isLocalUrl } from "../persist/origin.ts";
import { type Ctx, listener, localAccountOf } from "./common.ts";
import { acceptQuote, quoteAnswered, rejectQuote } from "./quote-answer.ts";

/**
 * The local account whose Follow of the sender an Accept or Reject answers: the request whose
 * activity id is the object's, else the embedded Follow's actor (Mastodon's fallback). Either way
 * only a follow of the sender itself can be answered, so a forged embedded Follow gains nothing.
 */
async function followerOf(ctx: Ctx, activity: Accept | Reject, sender: Account): Promise<Account | undefined> {
  const app = ctx.data;
  const objectId = activity.objectId;
  if (objectId && isLocalUrl(ctx, objectId)) {
    const request = await app.repos.follows.requestByUri(objectId.href);
    if (request && request.targetAccountId === sender.id) return app.repos.accounts.getById(request.accountId);
  }
  const object = await activity
    .getObject({ crossOrigin: "trust", documentLoader: ctx.documentLoader })
    .catch(() => null);
  if (!(object instanceof Follow) || object.objectId?.href !== sender.uri) return undefined;
  return localAccountOf(ctx, object.actorId);
}

/** Accept of a local account's Follow: the request becomes a follow (and its home is back-filled). */
export const onAccept = listener<Accept>("Accept", async (ctx, activity, sender) => {
  const quote = await quoteAnswered(ctx, activity, sender);
  if (quote) {
    await acceptQuote(ctx.data, activity, quote);
    return;
  }
  const follower = await followerOf(ctx, activity, sender);
  if (!follower) return;
  await acceptRequest(ctx.data, sender.id, follower);
});

/** Reject of a local account's Follow: the request goes, or the follow if it was accepted already. */
export const onReject = listener<Reject>("Reject", async (ctx, activity, sender) => {
  const quote = await quoteAnswered(ctx, activity, sender);
  if (quote) {
    await rejectQuote(ctx.data, quote);
    return;
  }
  const follower = await followerOf(ctx, activity, sender);
  if (!follower) return;
  const app = ctx.data;
  await app.db.transaction().execute(async (trx) => {
    await app.repos.follows.lockPair(follower.id, sender.id, trx);
    await app.repos.follows.deleteRequest(follower.id, sender.id, trx);
    if (await app.repos.follows.delete(follower.id, sender.id, trx)) {
      await app.repos.feeds.unmerge(follower.id, sender.id, trx);
      await removeFromListsOnUnfollow(app, follower.id, sender.id, trx);
    }
  });
});
