import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Report, ReportCategory } from "../../db/repositories/reports.ts";
import { queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { notFound, unprocessable } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { getVisibleAccount } from "../accounts/find-accounts.ts";
import { ADMIN_REPORT_JOB, type AdminReportJob } from "../notifications/admin-report.ts";
import { filterVisible } from "../statuses/views.ts";

/** Mastodon's limit on a report's comment (for local reports). */
export const REPORT_COMMENT_LIMIT = 1000;

export interface FileReportInput {
  targetAccountId: string | undefined;
  statusIds: readonly string[];
  comment: string;
  category: ReportCategory | undefined;
  ruleIds: readonly string[];
  forward: boolean;
}

/** The 422 of a report that does not validate (Mastodon's `Validation failed: ...`). */
const invalid = (message: string) => unprocessable(`Validation failed: ${message}`);

/**
 * The statuses a report may name: the target's own statuses that the reporter may see (Mastodon's
 * AccountStatusesFilter; the reporter's blocks and mutes of the target do not hide them). Any
 * other id is a 404, as Mastodon's `find` makes it, so a private post's existence does not leak.
 */
async function reportableStatusIds(
  ctx: AppContext,
  reporter: Account,
  target: Account,
  ids: readonly string[],
): Promise<string[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  if (!wanted.every(isId)) throw notFound();
  const own = (await ctx.repos.statuses.getByIds(wanted)).filter((s) => s.accountId === target.id);
  const visible = await filterVisible(ctx, own, reporter.id, { keep: "all" });
  if (visible.length !== wanted.length) throw notFound();
  return wanted;
}

/** The rules named, all of which must exist (Mastodon: "does not reference valid rules"). */
async function checkedRuleIds(ctx: AppContext, ids: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(ids)];
  const known = new Set((await ctx.repos.settings.rules()).map((r) => r.id));
  if (!wanted.every((id) => known.has(id))) throw invalid("Rule ids does not reference valid rules");
  return wanted;
}

/**
 * Files a report by `reporter` (Mastodon's ReportService for a local reporter). The category is
 * `violation` whenever rules are named, else the one given, else `other`. Staff are told through
 * the `notifications.admin-report` job, queued with the report. Nothing is stored unless every
 * check passes.
 */
export async function fileReport(ctx: AppContext, reporter: Account, input: FileReportInput): Promise<Report> {
  // 404 for an unknown account or one nobody may see yet, 410 for a deleted one (as everywhere).
  if (input.targetAccountId === undefined) throw notFound();
  const target = await getVisibleAccount(ctx, input.targetAccountId);
  if (target.id === reporter.id) throw invalid("Target account cannot be the reporter");
  if ([...input.comment].length > REPORT_COMMENT_LIMIT) {
    throw invalid(`Comment is too long (maximum is ${REPORT_COMMENT_LIMIT} characters)`);
  }
  const statusIds = await reportableStatusIds(ctx, reporter, target, input.statusIds);
  const ruleIds = input.ruleIds.length > 0 ? await checkedRuleIds(ctx, input.ruleIds) : null;
  const category: ReportCategory = ruleIds !== null ? "violation" : (input.category ?? "other");

  // A remote account's server gets a copy (from the instance actor) when the reporter asks.
  const forward = input.forward && target.domain !== null;
  const now = new Date();
  const id = ctx.ids.next(now);
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.reports.insert(
      {
        id,
        accountId: reporter.id,
        targetAccountId: target.id,
        statusIds,
        comment: input.comment,
        category,
        ruleIds,
        forwarded: forward,
        at: now.toISOString(),
      },
      trx,
    );
    jobs.add(ADMIN_REPORT_JOB, { reportId: id } satisfies AdminReportJob, { dedupeKey: `${ADMIN_REPORT_JOB}:${id}` });
    if (forward) queueDelivery(jobs, { type: "flag", reportId: id });
  });
  const report = await ctx.repos.reports.getById(id);
  if (!report) throw notFound();
  return report;
}
