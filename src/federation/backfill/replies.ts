import { Collection, Link } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import { isNoteLike, type NoteLike, persistNote } from "../persist/note.ts";
import { loaderOptions } from "../persist/origin.ts";
import { fedifyContext } from "../resolve/accounts.ts";

/** Replies stored per backfill, all levels together. */
export const MAX_REPLIES = 40;
/** Levels of replies below the opened post. */
export const MAX_DEPTH = 3;
/** Replies collection items looked at per post. */
const ITEMS_PER_POST = 20;
const BACKFILL_TIMEOUT_MS = 60_000;

/**
 * The `backfill.replies` job (queued when a remote post's thread is opened, at most once per post
 * every 15 minutes): the replies the post's `replies` collection lists and this server does not
 * know, stored and threaded, then their own replies, breadth first, at most `MAX_DEPTH` levels
 * and `MAX_REPLIES` posts in all.
 */
export async function backfillReplies(app: AppContext, statusId: string): Promise<void> {
  const root = await app.repos.statuses.getById(statusId);
  if (!root || root.local || root.deletedAt !== null) return;
  const ctx = await fedifyContext(app);
  const signal = AbortSignal.timeout(BACKFILL_TIMEOUT_MS);
  const opts = loaderOptions(ctx);
  const fetchNote = async (uri: string): Promise<NoteLike | undefined> => {
    try {
      const o = await ctx.lookupObject(uri, { ...opts, signal });
      return isNoteLike(o) ? o : undefined;
    } catch {
      return undefined;
    }
  };
  let level: NoteLike[] = [];
  const first = await fetchNote(root.uri);
  if (first) level.push(first);
  let stored = 0;
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && !signal.aborted; depth++) {
    const next: NoteLike[] = [];
    for (const note of level) {
      if (stored >= MAX_REPLIES || signal.aborted) break;
      const replies = await note.getReplies(opts).catch(() => null);
      if (!(replies instanceof Collection)) continue;
      let seen = 0;
      try {
        for await (const item of ctx.traverseCollection(replies, { ...opts, suppressError: true })) {
          if (++seen > ITEMS_PER_POST || stored >= MAX_REPLIES || signal.aborted) break;
          const reply = item instanceof Link ? (item.href ? await fetchNote(item.href.href) : undefined) : item;
          if (!isNoteLike(reply) || !reply.id) continue;
          const known = await app.repos.statuses.getByUri(reply.id.href);
          // Known replies are not stored again, but their replies may be missing.
          if (!known && (await persistNote(ctx, reply, { fetchParents: 0 }))) stored++;
          next.push(reply);
        }
      } catch {
        // A page that cannot be read: the next post's replies may be.
      }
    }
    level = next;
  }
}
