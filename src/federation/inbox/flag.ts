import type { Flag } from "@fedify/vocab";
import type { Account } from "../../db/repositories/accounts.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { htmlToPlainText } from "../../lib/text/remote-html.ts";
import { ADMIN_REPORT_JOB, type AdminReportJob } from "../../services/notifications/admin-report.ts";
import { REPORT_COMMENT_LIMIT } from "../../services/reports/create.ts";
import { hostOf } from "../persist/origin.ts";
import { listener, localAccountOf } from "./common.ts";

const MAX_REPORTED_STATUSES = 100;

/**
 * Flag (a report forwarded by another server): a report by the sender (usually that server's
 * instance actor) against the local account named, with the local posts named among its objects,
 * and staff notified. Dropped when the sender's domain is blocked with `reject_reports`.
 */
export const onFlag = listener<Flag>("Flag", async (ctx, activity, sender) => {
  const app = ctx.data;
  const rule = await app.repos.instanceDomainBlocks.ruleFor(hostOf(new URL(sender.uri)));
  if (rule?.rejectReports) return;
  const ids = activity.objectIds.slice(0, MAX_REPORTED_STATUSES + 1);
  let target: Account | undefined;
  const statusIds: string[] = [];
  for (const id of ids) {
    const account = await localAccountOf(ctx, id);
    if (account) {
      target ??= account;
      continue;
    }
    const status = await app.repos.statuses.getByUri(id.href);
    if (!status?.local || status.deletedAt !== null) continue;
    if (target !== undefined && status.accountId !== target.id) continue;
    target ??= await app.repos.accounts.getById(status.accountId);
    statusIds.push(status.id);
  }
  if (!target || target.domain !== null) return;
  const now = new Date();
  const reportId = app.ids.next(now);
  const comment = [...htmlToPlainText(activity.content?.toString() ?? "")].slice(0, REPORT_COMMENT_LIMIT).join("");
  const targetId = target.id;
  await transactionWithJobs(app, async (trx, jobs) => {
    await app.repos.reports.insert(
      {
        id: reportId,
        accountId: sender.id,
        targetAccountId: targetId,
        statusIds: statusIds.filter((_, i) => i < MAX_REPORTED_STATUSES),
        comment,
        category: "other",
        ruleIds: null,
        forwarded: false,
        at: now.toISOString(),
      },
      trx,
    );
    jobs.add(ADMIN_REPORT_JOB, { reportId } satisfies AdminReportJob, {
      dedupeKey: `${ADMIN_REPORT_JOB}:${reportId}`,
    });
  });
});
