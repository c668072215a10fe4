import type { Create } from "@fedify/vocab";
import { isNoteLike, persistNote } from "../persist/note.ts";
import { loaderOptions, sameOrigin } from "../persist/origin.ts";
import { listener } from "./common.ts";
import { receiveVote } from "./vote.ts";

/** How many unknown posts up a thread a new reply may fetch to be threaded. */
const FETCH_PARENTS = 3;
/** How many unknown quoted posts a new post may fetch down a chain of quotes (Mastodon fetches 2). */
const FETCH_QUOTE = 2;

/**
 * Create of a Note, Question or Article: the post is stored (its author must be the sender, on the
 * sender's origin), mentioned local users are notified and local followers get it in their home
 * feeds before the 202 (persistNote). A vote in a local poll is counted instead (vote.ts). Other
 * objects are ignored.
 */
export const onCreate = listener<Create>("Create", async (ctx, activity, sender) => {
  const objectId = activity.objectId;
  // An object of another origin is not taken from the activity (it could be forged).
  if (objectId && !sameOrigin(objectId, new URL(sender.uri))) return;
  const object = await activity.getObject(loaderOptions(ctx));
  if (!isNoteLike(object)) return;
  if (await receiveVote(ctx, object, sender)) return;
  await persistNote(ctx, object, {
    actor: sender,
    fetchParents: FETCH_PARENTS,
    fetchQuote: FETCH_QUOTE,
    fanOutNow: true,
  });
});
