import { isActor, type Update } from "@fedify/vocab";
import { publishStatusUpdate } from "../../services/streaming/publish.ts";
import { persistActor } from "../persist/actor.ts";
import { isNoteLike } from "../persist/note.ts";
import { updateNote } from "../persist/note-update.ts";
import { loaderOptions, sameOrigin } from "../persist/origin.ts";
import { updateQuoteOf } from "../persist/quote-store.ts";
import { listener } from "./common.ts";

/**
 * Update of a Note or Question (an edit, with history; a Question's new counts) or of the sender's
 * own actor (the profile refreshed); a post's quote and quote policy follow its Note. Only objects of the sender's origin are changed, and a post
 * only by its author; an Update of a post not stored here is ignored, as Mastodon does.
 */
export const onUpdate = listener<Update>("Update", async (ctx, activity, sender) => {
  const objectId = activity.objectId;
  if (!objectId || !sameOrigin(objectId, new URL(sender.uri))) return;
  const object = await activity.getObject(loaderOptions(ctx));
  if (isActor(object)) {
    if (object.id?.href !== sender.uri) return;
    await persistActor(ctx, object);
    return;
  }
  if (!isNoteLike(object) || object.id?.href !== objectId.href) return;
  const status = await ctx.data.repos.statuses.getByUri(objectId.href);
  if (!status || status.deletedAt !== null) return;
  const edited = await updateNote(ctx, object, status, sender);
  // Its quote is read even when the text is unchanged: the Update that brings a quote's stamp
  // repeats the same text (and the same `updated`).
  const quoteChanged = status.accountId === sender.id && (await updateQuoteOf(ctx, object, status, sender));
  // Streaming clients that may show it get the edit (`status.update`), as for a local edit.
  if (edited || quoteChanged) await publishStatusUpdate(ctx.data, status.id);
});
