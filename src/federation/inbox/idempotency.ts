import type { IdempotencyKeyCallback } from "@fedify/fedify";
import { Accept, Reject } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";

/**
 * The key under which Fedify remembers (for a day) that an inbox activity was processed, and
 * drops it when it comes again. Fedify's default ("per-inbox": origin, activity id, inbox) for
 * everything but an Accept or Reject, whose key also names the object it answers: Hollo gives
 * its Accept the same id for every Follow from one account, so a second follow after an unfollow
 * was accepted by an activity already remembered, and stayed pending. A resent reply to the same
 * Follow is still dropped; answering it twice would do nothing anyway.
 */
export const inboxIdempotencyKey: IdempotencyKeyCallback<AppContext> = (ctx, activity) => {
  if (activity.id === null) return null;
  const inbox = ctx.recipient === null ? "sharedInbox" : `inbox\n${ctx.recipient}`;
  const key = `${ctx.origin}\n${activity.id.href}\n${inbox}`;
  if (!(activity instanceof Accept || activity instanceof Reject)) return key;
  const object = activity.objectId;
  return object ? `${key}\nobject\n${object.href}` : key;
};
