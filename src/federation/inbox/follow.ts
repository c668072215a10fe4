import type { Follow } from "@fedify/vocab";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { queueDelivery } from "../deliveries.ts";
import { listener, localAccountOf } from "./common.ts";

const NOTIFY_JOB = "notifications.create";

/**
 * Follow of a local account: refused (Reject) when either blocks the other; a follow request
 * (with a `follow_request` notification) when the account is locked or the follower silenced;
 * else a follow (with a `follow` notification), answered with Accept. A Follow repeated for a
 * follow that exists is accepted again (the remote lost our Accept). The answer is a
 * `federation.deliver` job queued with the commit (federation/deliveries.ts).
 */
export const onFollow = listener<Follow>("Follow", async (ctx, activity, sender) => {
  const target = await localAccountOf(ctx, activity.objectId);
  if (!target) return;
  const app = ctx.data;
  const uri = activity.id?.href ?? null;
  const repo = app.repos.follows;
  await transactionWithJobs(app, async (trx, jobs) => {
    const answer = (type: "follow.accept" | "follow.reject") =>
      queueDelivery(jobs, { type, accountId: target.id, followerId: sender.id, uri });
    await repo.lockPair(sender.id, target.id, trx);
    if (await repo.blockedEitherWay(sender.id, target.id, trx)) return answer("follow.reject");
    if (await repo.getFollow(sender.id, target.id, trx)) return answer("follow.accept");
    if (await repo.getRequest(sender.id, target.id, trx)) return;
    const now = new Date();
    const row = {
      id: app.ids.next(now),
      account_id: sender.id,
      target_account_id: target.id,
      uri,
      show_reblogs: true,
      notify: false,
      languages: null,
      created_at: now.toISOString(),
    };
    if (target.locked || sender.silencedAt !== null) {
      if (await repo.insertRequest(row, trx)) {
        jobs.add(NOTIFY_JOB, { type: "follow_request", activityId: row.id, fromAccountId: sender.id });
      }
      return;
    }
    if (await repo.insert(row, trx)) {
      jobs.add(NOTIFY_JOB, { type: "follow", activityId: row.id, fromAccountId: sender.id });
    }
    answer("follow.accept");
  });
});
