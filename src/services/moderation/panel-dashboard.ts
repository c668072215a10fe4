import type { AppContext } from "../../context.ts";
import type { JobSummary, QueueState } from "../../infra/queue/interface.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import type { Account } from "../accounts/types.ts";
import { failingServerCount } from "../federation/delivery-health.ts";
import { listReports } from "../reports/admin.ts";
import { listAdminAccounts } from "./accounts.ts";
import { type ActionLogEntry, type ActionLogFilter, actionLogPage } from "./action-log.ts";
import { type DimensionJson, dimensions, type MeasureJson, measures } from "./dashboard.ts";

export type { JobSummary, QueueState };

/**
 * What the moderation panel's dashboard, job queue and audit log pages read (docs/web-admin-dashboard.md).
 * Everything here reads: the figures come from the admin API's own measures and dimensions, the
 * counts from the same listings the admin API pages through.
 */

/** The measures the dashboard shows, in its order (the admin API's keys). */
export const DASHBOARD_MEASURES = [
  "active_users",
  "new_users",
  "interactions",
  "opened_reports",
  "resolved_reports",
] as const;

/** The dimensions the dashboard shows as small tables (the admin API's keys). */
export const DASHBOARD_DIMENSIONS = ["servers", "languages", "software_versions", "space_usage"] as const;

/** Rows of each dimension table. */
const DIMENSION_ROWS = 8;

export interface DashboardFigures {
  measures: MeasureJson[];
  dimensions: DimensionJson[];
}

/** The dashboard's measures and dimensions over the days `start` to `end` (`YYYY-MM-DD`, both included). */
export async function dashboardFigures(ctx: AppContext, start: string, end: string): Promise<DashboardFigures> {
  const span = { start_at: start, end_at: end };
  const [m, d] = await Promise.all([
    measures(ctx, { ...span, keys: [...DASHBOARD_MEASURES] }),
    dimensions(ctx, { ...span, keys: [...DASHBOARD_DIMENSIONS], limit: String(DIMENSION_ROWS) }),
  ]);
  return { measures: m, dimensions: d };
}

/** A count read by paging up to a bound: `more` when there are more than `count`. */
export interface BoundedCount {
  count: number;
  more: boolean;
}

const COUNT_BOUND = 100;

const bounded = (n: number): BoundedCount => ({ count: Math.min(n, COUNT_BOUND), more: n > COUNT_BOUND });

/** Queue jobs that deliver to other servers (the federation jobs). */
export const isDeliveryJob = (name: string): boolean => name.startsWith("federation.");

/** What needs a moderator's or operator's attention now. */
export interface Attention {
  pendingSignUps: BoundedCount;
  openReports: BoundedCount;
  /** Trend candidates (hashtags, posts, links) without a moderator's decision; undefined when trends are off. */
  pendingTrends: BoundedCount | undefined;
  /** Delivery jobs that failed: retrying ones (of the most recent failures) and dead ones. */
  failingDeliveries: number;
  /** Servers whose deliveries have failed since the last that worked (delivery health). */
  failingServers: number;
}

async function pendingTrendCount(ctx: AppContext): Promise<BoundedCount | undefined> {
  if (!ctx.config.trends.enabled) return undefined;
  const repo = ctx.repos.trendReview;
  const [tags, statuses, links] = await Promise.all([
    repo.tagCandidates(COUNT_BOUND + 1, 0),
    repo.statusCandidates(COUNT_BOUND + 1, 0),
    repo.linkCandidates(COUNT_BOUND + 1, 0),
  ]);
  const reviews = await repo.linkReviews(links.map((l) => l.id));
  const undecidedLinks = [...reviews.values()].filter((r) => r.trendable === null && !r.publisherReviewed).length;
  const n =
    tags.filter((t) => t.trendable === null).length +
    statuses.filter((s) => s.trendable === null).length +
    undecidedLinks;
  return bounded(n);
}

/** The dashboard's "what needs attention" counts (each bounded at 100). */
export async function attention(ctx: AppContext, state?: QueueState): Promise<Attention> {
  const window = { limit: COUNT_BOUND + 1 };
  const [pending, reports, trends, queue, failingServers] = await Promise.all([
    listAdminAccounts(ctx, { origin: "local", status: "pending" }, window),
    listReports(ctx, { resolved: false }, window),
    pendingTrendCount(ctx),
    state ?? ctx.queue.state(),
    failingServerCount(ctx),
  ]);
  return {
    pendingSignUps: bounded(pending.length),
    openReports: bounded(reports.length),
    pendingTrends: trends,
    failingDeliveries: failingDeliveries(queue),
    failingServers,
  };
}

/** Dead delivery jobs plus those retrying after a failure (among the most recent failures the queue lists). */
export function failingDeliveries(state: QueueState): number {
  const dead = state.counts.filter((c) => c.state === "dead" && isDeliveryJob(c.name)).reduce((n, c) => n + c.count, 0);
  const retrying = state.failing.filter((f) => f.state !== "dead" && isDeliveryJob(f.name)).length;
  return dead + retrying;
}

/** The job queue's state, as `gannet jobs list` shows it. */
export function queueState(ctx: AppContext): Promise<QueueState> {
  return ctx.queue.state();
}

/** One audit log row: the entry and the staff account that acted (null: the `gannet` command or a deleted account). */
export interface AuditRow {
  entry: ActionLogEntry;
  actor: Account | null;
}

export interface AuditFilter extends ActionLogFilter {
  /** Only this action (`create`, `suspend`, ...): read by scanning, see `auditLogPage`. */
  action?: string;
}

export interface AuditPage {
  rows: AuditRow[];
  /** Where the next older page starts (`max_id`), when there may be more. */
  olderFrom?: string;
  /** Where the next newer page starts (`min_id`), when there may be more. */
  newerFrom?: string;
}

/** How many entries one page with an action filter looks through at most. */
const ACTION_SCAN = 2000;
const SCAN_PAGE = 200;

/**
 * One page of the audit log, newest first. The account and target filters are the admin API's;
 * an action filter is applied while paging through the log (at most 2000 entries a page), so a
 * page may come back short with a link to look further.
 */
export async function auditLogPage(ctx: AppContext, filter: AuditFilter, window: IdWindow): Promise<AuditPage> {
  const { action, ...base } = filter;
  let entries: ActionLogEntry[];
  let scanEnd: string | undefined;
  let exhausted = false;
  if (action === undefined) {
    entries = await actionLogPage(ctx, base, { ...window, limit: window.limit + 1 });
    exhausted = entries.length <= window.limit;
    if (window.minId !== undefined) entries = entries.slice(-window.limit);
    else entries = entries.slice(0, window.limit);
  } else {
    const upward = window.minId !== undefined;
    const found: ActionLogEntry[] = [];
    let cursor: IdWindow = { ...window, limit: SCAN_PAGE };
    let scanned = 0;
    while (found.length < window.limit + 1 && scanned < ACTION_SCAN) {
      const page = await actionLogPage(ctx, base, cursor);
      scanned += page.length;
      // Pages come newest first; going up, the entries nearest the cursor are the page's last.
      const ordered = upward ? [...page].reverse() : page;
      for (const e of ordered) {
        if (found.length > window.limit) break;
        if (e.action === action) found.push(e);
        scanEnd = e.id;
      }
      if (page.length < SCAN_PAGE) {
        exhausted = found.length <= window.limit;
        break;
      }
      const edge = upward ? page[0]?.id : page.at(-1)?.id;
      cursor = upward ? { minId: edge, limit: SCAN_PAGE } : { maxId: edge, limit: SCAN_PAGE };
    }
    if (found.length > window.limit) {
      found.length = window.limit;
      scanEnd = found.at(-1)?.id;
    }
    entries = upward ? found.reverse() : found;
  }
  const ids = [...new Set(entries.map((e) => e.accountId).filter((id): id is string => id !== null))];
  const actors = new Map((await ctx.repos.accounts.getByIds(ids)).map((a) => [a.id, a]));
  const rows = entries.map((entry) => ({
    entry,
    actor: entry.accountId === null ? null : (actors.get(entry.accountId) ?? null),
  }));
  const upward = window.minId !== undefined;
  const newest = entries[0]?.id;
  const oldest = entries.at(-1)?.id;
  const scanned = action !== undefined ? scanEnd : undefined;
  const page: AuditPage = { rows };
  if (upward) {
    // Going up: older entries exist below the cursor; newer ones unless the scan ran out.
    page.olderFrom = oldest ?? window.minId;
    if (!exhausted) page.newerFrom = action !== undefined ? (scanned ?? newest) : newest;
  } else {
    if (!exhausted) page.olderFrom = action !== undefined ? (scanned ?? oldest) : oldest;
    if (window.maxId !== undefined) page.newerFrom = newest ?? window.maxId;
  }
  return page;
}

/** The local staff members (roles that manage reports, and the Owner), for the audit log's filter. */
export function staffAccounts(ctx: AppContext): Promise<Account[]> {
  return listAdminAccounts(ctx, { origin: "local", staff: true }, { limit: 200 });
}
