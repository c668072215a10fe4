import type { Add, Remove } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { ACCOUNT_LIMITS } from "../../lib/limits.ts";
import { canPin } from "../../policies/statuses.ts";
import { isNoteLike, persistNote } from "../persist/note.ts";
import { loaderOptions, sameOrigin } from "../persist/origin.ts";
import { type Ctx, listener } from "./common.ts";

const TAG_RE = /^[\p{L}\p{M}\p{N}_\u00b7\u30fb\u200c]{1,100}$/u;

/** Which of the sender's featured collections an Add or Remove targets, if either. */
async function collectionOf(ctx: Ctx, activity: Add | Remove, sender: Account): Promise<"posts" | null> {
  const target = activity.targetId;
  if (!target) return null;
  const info = await ctx.data.repos.accounts.remoteInfo(sender.id);
  return info?.featuredUrl === target.href ? "posts" : null;
}

/** The sender's own post an Add or Remove names: known, or (for Add) fetched and stored. */
async function ownPost(ctx: Ctx, activity: Add | Remove, sender: Account, fetch: boolean): Promise<Status | undefined> {
  const objectId = activity.objectId;
  if (!objectId || !sameOrigin(objectId, new URL(sender.uri))) return undefined;
  let status = await ctx.data.repos.statuses.getByUri(objectId.href);
  if (!status && fetch) {
    const object = await activity.getObject(loaderOptions(ctx));
    if (isNoteLike(object) && object.id?.href === objectId.href) {
      status = (await persistNote(ctx, object, { actor: sender })) ?? undefined;
    }
  }
  return status && status.accountId === sender.id && status.deletedAt === null ? status : undefined;
}

/**
 * Adds or removes a featured hashtag of a remote account (an Add or Remove of a Hashtag whose
 * target is its `featuredTags` or, as Mastodon sends it, its `featured` collection). Fedify cannot parse these activities (their object, a Hashtag, is
 * a Link), so they reach this through `featuredTagActivity` (hashtag-activity.ts), which verifies
 * their signature with Fedify's `verifyRequest` first.
 */
export async function applyFeaturedTag(
  app: AppContext,
  sender: Account,
  op: "Add" | "Remove",
  target: string,
  name: string,
): Promise<void> {
  const info = await app.repos.accounts.remoteInfo(sender.id);
  const tagName = name.replace(/^#/, "");
  // Mastodon targets its `featured` collection (it has no URI for the tags one), Gannet and
  // others the `featuredTags` one: a Hashtag added to either is a featured tag.
  const targets = [info?.featuredTagsUrl, info?.featuredUrl].filter((u) => u);
  if (!targets.includes(target) || !TAG_RE.test(tagName)) return;
  const now = new Date().toISOString();
  if (op === "Add") {
    const tag = await app.repos.tagCuration.findOrCreateTag(tagName, () => app.ids.next(), now);
    await app.repos.tagCuration.feature(
      { id: app.ids.next(), account_id: sender.id, tag_id: tag.id, created_at: now },
      ACCOUNT_LIMITS.maxFeaturedTags,
    );
    return;
  }
  const tag = await app.repos.statuses.getTag(tagName);
  if (tag) await app.repos.tagCuration.unfeatureTag(sender.id, tag.id);
}

/** Add of the sender's own post to its `featured` collection: a pinned post. */
export const onAdd = listener<Add>("Add", async (ctx, activity, sender) => {
  const app = ctx.data;
  if ((await collectionOf(ctx, activity, sender)) !== "posts") return;
  const status = await ownPost(ctx, activity, sender, true);
  if (!status || !canPin(status, sender.id)) return;
  const row = { id: app.ids.next(), account_id: sender.id, status_id: status.id, created_at: new Date().toISOString() };
  await app.repos.statusInteractions.add("status_pins", row);
});

/** Remove of a post from the sender's `featured` collection: unpinned. */
export const onRemove = listener<Remove>("Remove", async (ctx, activity, sender) => {
  if ((await collectionOf(ctx, activity, sender)) !== "posts") return;
  const status = await ownPost(ctx, activity, sender, false);
  if (status) await ctx.data.repos.statusInteractions.remove("status_pins", sender.id, status.id);
});
