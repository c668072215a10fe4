import { Collection, Create } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import { isNoteLike, persistNote } from "../persist/note.ts";
import { loaderOptions } from "../persist/origin.ts";
import { fedifyContext } from "../resolve/accounts.ts";

/** Posts stored from a newly resolved account's outbox (Mastodon's fetch of recent posts does about 20). */
export const OUTBOX_POSTS = 20;
/** Outbox items looked at, boosts and other activities included. */
const OUTBOX_ITEMS = 60;
const OUTBOX_TIMEOUT_MS = 60_000;

/**
 * The `backfill.outbox` job: the recent posts of a remote account resolved for the first time,
 * read from its outbox (newest first, following pages) and stored as if they had been
 * delivered: at most `OUTBOX_POSTS` posts, only the account's own (a `Create` by it of a note
 * attributed to it), whatever the outbox claims. Boosts and other activities are skipped.
 */
export async function backfillOutbox(app: AppContext, accountId: string): Promise<void> {
  const [account, info] = await Promise.all([
    app.repos.accounts.getById(accountId),
    app.repos.accounts.remoteInfo(accountId),
  ]);
  if (!account || account.domain === null || account.suspendedAt !== null || !info?.outboxUrl) return;
  const ctx = await fedifyContext(app);
  const signal = AbortSignal.timeout(OUTBOX_TIMEOUT_MS);
  const opts = loaderOptions(ctx);
  let outbox: unknown;
  try {
    outbox = await ctx.lookupObject(info.outboxUrl, { ...opts, signal });
  } catch {
    return;
  }
  if (!(outbox instanceof Collection)) return;
  let seen = 0;
  let stored = 0;
  try {
    for await (const item of ctx.traverseCollection(outbox, { ...opts, suppressError: true })) {
      if (++seen > OUTBOX_ITEMS || stored >= OUTBOX_POSTS || signal.aborted) break;
      if (!(item instanceof Create) || item.actorId?.href !== account.uri) continue;
      const note = await item.getObject(opts).catch(() => null);
      if (!isNoteLike(note)) continue;
      if (await persistNote(ctx, note, { actor: account })) stored++;
    }
  } catch {
    // A page that cannot be read ends the backfill with what was stored.
  }
}
