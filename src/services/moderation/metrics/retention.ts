import type { AppContext } from "../../../context.ts";
import { ApiError } from "../../../lib/errors.ts";
import { addDays, midnight, parseDay } from "./dates.ts";
import type { MetricParams } from "./params.ts";

/** Mastodon's Admin::Cohort: the users who signed up in one period, and how many were seen since. */
export interface CohortJson {
  period: string;
  frequency: "day" | "month";
  data: { date: string; rate: number; value: string }[];
}

/** At most this many periods (a cohort table grows with their square). */
const MAX_PERIODS = 400;

function nextPeriod(day: string, frequency: "day" | "month"): string {
  if (frequency === "day") return addDays(day, 1);
  const [y, m] = day.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

/** The periods from the one holding `start` to the one holding `end`, as their first days. */
function periods(start: string, end: string, frequency: "day" | "month"): string[] {
  const first = frequency === "day" ? start : `${start.slice(0, 7)}-01`;
  const out: string[] = [];
  for (let p = first; p <= end; p = nextPeriod(p, frequency)) {
    out.push(p);
    if (out.length > MAX_PERIODS)
      throw new ApiError(400, `The time range is too long (at most ${MAX_PERIODS} periods)`);
  }
  return out;
}

/**
 * `POST /api/v1/admin/retention`: for each day (or month, with `frequency=month`) from `start_at`
 * to `end_at`, the users who signed up then, and for that period and each later one how many of
 * them were last active in it or after (Mastodon uses the last sign-in; Gannet takes the latest of
 * sign-in, posting, favouriting and app use). `rate` is that share of the cohort (0 to 1).
 */
export async function retention(ctx: AppContext, params: MetricParams): Promise<CohortJson[]> {
  const start = parseDay(params.start_at, "start_at");
  const end = parseDay(params.end_at, "end_at");
  const frequency = params.frequency === "month" ? "month" : "day";
  const list = periods(start, end, frequency);
  if (list.length === 0) return [];
  const until = nextPeriod(list.at(-1) as string, frequency);
  const members = await ctx.repos.adminMetrics.cohort({ from: list[0] as string, until });
  return list.map((period, i) => {
    const next = list[i + 1] ?? until;
    const cohort = members.filter((m) => m.createdAt >= period && m.createdAt < next);
    const size = Math.max(cohort.length, 1);
    return {
      period: midnight(period),
      frequency,
      data: list.slice(i).map((date) => {
        const value = cohort.filter((m) => m.lastActiveAt !== null && m.lastActiveAt >= date).length;
        return { date: midnight(date), rate: value / size, value: String(value) };
      }),
    };
  });
}
