import type { Announce } from "@fedify/vocab";
import type { Status } from "../../db/repositories/statuses.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { canReblog } from "../../policies/statuses.ts";
import { enqueueFanOut } from "../../services/feeds/fan-out.ts";
import { isVisible } from "../../services/statuses/views.ts";
import { isNoteLike, persistNote } from "../persist/note.ts";
import { visibilityOf } from "../persist/note-read.ts";
import { isLocalUrl, loaderOptions, sameOrigin } from "../persist/origin.ts";
import { type Ctx, listener } from "./common.ts";

/** The boosted post: known here, or fetched from its own origin and stored. */
async function boosted(ctx: Ctx, activity: Announce): Promise<Status | undefined> {
  const objectId = activity.objectId;
  if (!objectId) return undefined;
  const known = await ctx.data.repos.statuses.getByUri(objectId.href);
  if (known || isLocalUrl(ctx, objectId)) return known;
  // An embedded copy is trusted only from the post's own origin (Fedify refetches it otherwise).
  const object = await activity.getObject(loaderOptions(ctx));
  if (!isNoteLike(object) || object.id?.href !== objectId.href) return undefined;
  return (await persistNote(ctx, object)) ?? undefined;
}

/**
 * Announce of a post: a boost by the sender (its id is the activity's, on the sender's origin),
 * counted, notified to a local author (`reblog`) and fanned out to the sender's local followers.
 * Posts the sender may not boost (followers-only or direct posts of others) or see are ignored.
 */
export const onAnnounce = listener<Announce>("Announce", async (ctx, activity, sender) => {
  const id = activity.id;
  if (!id || !sameOrigin(id, new URL(sender.uri))) return;
  const app = ctx.data;
  if (await app.repos.statuses.getByUri(id.href)) return;
  const original = await boosted(ctx, activity);
  if (!original || original.deletedAt !== null) return;
  if (!canReblog(original, sender.id) || !(await isVisible(app, original, sender.id))) return;
  const info = await app.repos.accounts.remoteInfo(sender.id);
  let visibility = visibilityOf(activity.toIds, activity.ccIds, info?.followersUrl ?? null);
  // A boost is never direct; an unaddressed one reaches followers, as Mastodon reads it.
  if (visibility === "direct") visibility = "private";
  const now = new Date();
  const publishedMs = activity.published?.epochMilliseconds;
  const createdAt = publishedMs !== undefined && publishedMs <= now.getTime() ? new Date(publishedMs) : now;
  const boostId = app.ids.next(createdAt);
  try {
    await transactionWithJobs(app, async (trx, jobs) => {
      await app.repos.statuses.insert(
        {
          id: boostId,
          uri: id.href,
          url: id.href,
          account_id: sender.id,
          reblog_of_id: original.id,
          visibility,
          sensitive: false,
          local: false,
          created_at: createdAt.toISOString(),
          updated_at: now.toISOString(),
        },
        trx,
      );
      await app.repos.statuses.addToCounter(original.id, "reblogs_count", 1, trx);
      await app.repos.statuses.addToAccountCount(sender.id, 1, createdAt.toISOString(), trx);
      if (original.accountId !== sender.id) jobs.add("notifications.create", { type: "reblog", statusId: boostId });
      enqueueFanOut(jobs, boostId, { immediate: true });
    });
  } catch (error) {
    // Another delivery of the same Announce stored it first (the URI is unique).
    if (await app.repos.statuses.getByUri(id.href)) return;
    throw error;
  }
});
