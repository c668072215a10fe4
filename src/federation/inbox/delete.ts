import type { Delete } from "@fedify/vocab";
import { deleteRemoteAccount, deleteRemoteStatus } from "../../services/federation/remote-deletes.ts";
import { sameOrigin } from "../persist/origin.ts";
import { listener } from "./common.ts";
import { revokeStamp } from "./quote-answer.ts";

/**
 * Delete of a post (it and its boosts go), of the sender itself (the account is marked deleted
 * and its posts purged), or of a quote's stamp the sender issued (the quote is revoked). The object is never fetched (it is gone): its id must be of the sender's
 * origin, and a post must be the sender's own.
 */
export const onDelete = listener<Delete>("Delete", async (ctx, activity, sender) => {
  const objectId = activity.objectId;
  if (!objectId || !sameOrigin(objectId, new URL(sender.uri))) return;
  if (objectId.href === sender.uri) {
    await deleteRemoteAccount(ctx.data, sender);
    return;
  }
  if (await revokeStamp(ctx.data, objectId.href, sender)) return;
  const status = await ctx.data.repos.statuses.getByUri(objectId.href);
  if (!status) return;
  await deleteRemoteStatus(ctx.data, sender, status);
});
