import type { AppContext } from "../../../context.ts";
import type { MetricSource } from "../../../db/repositories/admin-metrics.ts";
import { eachDay, midnight, parseSpan, previousRange, rangeOf, type Span } from "./dates.ts";
import { humanSize } from "./human-size.ts";
import { domainParam, type MetricParams, requestedKeys, tagParam } from "./params.ts";

/** Mastodon's Admin::Measure entity: figures as decimal strings. */
export interface MeasureJson {
  key: string;
  unit: string | null;
  total: string;
  human_value?: string;
  previous_total?: string;
  data: { date: string; value: string }[];
}

type Build = (ctx: AppContext, params: MetricParams, key: string) => Promise<MetricSource> | MetricSource;

interface MeasureSpec {
  source: Build;
  /** Whether `total` counts the requested days (with a `previous_total`) or all time. */
  inRange: boolean;
  unit?: "bytes";
}

const plain = (source: MetricSource): MeasureSpec => ({ source: () => source, inRange: true });
const byTag =
  (kind: "tagUses" | "tagAccounts" | "tagServers"): Build =>
  async (ctx, params, key) => ({ kind, tagId: await tagParam(ctx, params, key) });
const byDomain =
  (
    kind:
      | "instanceAccounts"
      | "instanceMedia"
      | "instanceReports"
      | "instanceStatuses"
      | "instanceFollows"
      | "instanceFollowers",
  ): Build =>
  (_ctx, params, key) => ({ kind, domain: domainParam(params, key) });

/** Every measure Mastodon 4.4 knows, in its order. */
export const MEASURES: Record<string, MeasureSpec> = {
  active_users: plain({ kind: "activeUsers" }),
  new_users: plain({ kind: "newUsers" }),
  interactions: plain({ kind: "interactions" }),
  opened_reports: plain({ kind: "openedReports" }),
  resolved_reports: plain({ kind: "resolvedReports" }),
  tag_accounts: { source: byTag("tagAccounts"), inRange: true },
  tag_uses: { source: byTag("tagUses"), inRange: true },
  tag_servers: { source: byTag("tagServers"), inRange: true },
  instance_accounts: { source: byDomain("instanceAccounts"), inRange: false },
  instance_media_attachments: { source: byDomain("instanceMedia"), inRange: false, unit: "bytes" },
  instance_reports: { source: byDomain("instanceReports"), inRange: false },
  instance_statuses: { source: byDomain("instanceStatuses"), inRange: false },
  instance_follows: { source: byDomain("instanceFollows"), inRange: false },
  instance_followers: { source: byDomain("instanceFollowers"), inRange: false },
};

async function measure(
  ctx: AppContext,
  key: string,
  spec: MeasureSpec,
  span: Span,
  params: MetricParams,
): Promise<MeasureJson> {
  const source = await spec.source(ctx, params, key);
  const repo = ctx.repos.adminMetrics;
  const range = rangeOf(span);
  const [total, previous, daily] = await Promise.all([
    repo.total(source, spec.inRange ? range : undefined),
    spec.inRange ? repo.total(source, previousRange(span)) : undefined,
    repo.daily(source, range),
  ]);
  return {
    key,
    unit: spec.unit ?? null,
    total: String(total),
    ...(spec.unit === "bytes" ? { human_value: humanSize(total) } : {}),
    ...(previous !== undefined ? { previous_total: String(previous) } : {}),
    data: eachDay(span.start, span.end).map((day) => ({ date: midnight(day), value: String(daily.get(day) ?? 0) })),
  };
}

/**
 * `POST /api/v1/admin/measures`: each known key of `keys[]` in the order asked (unknown keys left
 * out, as Mastodon does), over the days from `start_at` to `end_at`.
 */
export async function measures(ctx: AppContext, params: MetricParams): Promise<MeasureJson[]> {
  const keys = requestedKeys(params).filter((k) => Object.hasOwn(MEASURES, k));
  if (keys.length === 0) return [];
  const span = parseSpan(params.start_at, params.end_at);
  const out: MeasureJson[] = [];
  for (const key of keys) out.push(await measure(ctx, key, MEASURES[key] as MeasureSpec, span, params));
  return out;
}
