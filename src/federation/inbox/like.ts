import type { Like } from "@fedify/vocab";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { isVisible } from "../../services/statuses/views.ts";
import { listener } from "./common.ts";

/**
 * Like of a post known here and visible to the sender: a favourite (counted once), and a
 * `favourite` notification for a local author (the job skips remote ones and blocked senders).
 */
export const onLike = listener<Like>("Like", async (ctx, activity, sender) => {
  const objectId = activity.objectId;
  if (!objectId) return;
  const app = ctx.data;
  const status = await app.repos.statuses.getByUri(objectId.href);
  if (!status || status.deletedAt !== null || status.reblogOfId !== null) return;
  if (!(await isVisible(app, status, sender.id))) return;
  await transactionWithJobs(app, async (trx, jobs) => {
    const row = {
      id: app.ids.next(),
      account_id: sender.id,
      status_id: status.id,
      created_at: new Date().toISOString(),
    };
    if (!(await app.repos.statusInteractions.add("favourites", row, trx))) return;
    await app.repos.statuses.addToCounter(status.id, "favourites_count", 1, trx);
    jobs.add("notifications.create", {
      type: "favourite",
      statusId: status.id,
      activityId: row.id,
      fromAccountId: sender.id,
    });
  });
});
