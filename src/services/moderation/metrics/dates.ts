import type { DayRange } from "../../../db/repositories/admin-metrics.ts";
import { ApiError } from "../../../lib/errors.ts";

const DAY_MS = 86_400_000;

/** The longest range a request may span, in days (ten years). */
export const MAX_DAYS = 3660;

/**
 * A request's `start_at` or `end_at` as a day (`YYYY-MM-DD`): a date or a date-time, whose time
 * is ignored (as Mastodon's dashboard counts whole days). Missing or not a date: 400.
 */
export function parseDay(value: unknown, name: string): string {
  if (value === undefined || value === null || value === "") {
    throw new ApiError(400, `param is missing or the value is empty: ${name}`);
  }
  const m = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(value.trim()) : null;
  if (m) {
    const day = `${m[1]}-${m[2]}-${m[3]}`;
    const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    if (new Date(t).toISOString().slice(0, 10) === day) return day;
  }
  throw new ApiError(400, `${name} is not a valid date`);
}

/** Days after `day` (negative: before). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1);
}

/** Each day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  return Array.from({ length: daysBetween(from, to) }, (_, i) => addDays(from, i));
}

/** The requested days, checked: `end_at` before `start_at` gives no days; more than MAX_DAYS is a 400. */
export interface Span {
  start: string;
  end: string;
  days: number;
}

export function parseSpan(startAt: unknown, endAt: unknown): Span {
  const start = parseDay(startAt, "start_at");
  const end = parseDay(endAt, "end_at");
  const days = daysBetween(start, end);
  if (days > MAX_DAYS) throw new ApiError(400, `The time range is too long (at most ${MAX_DAYS} days)`);
  return { start, end, days };
}

/** The span as a query range: its first day up to the day after its last. */
export function rangeOf(span: Span): DayRange {
  return { from: span.start, until: span.days === 0 ? span.start : addDays(span.end, 1) };
}

/** The same number of days just before the span (a measure's previous period). */
export function previousRange(span: Span): DayRange {
  return { from: addDays(span.start, -span.days), until: span.start };
}

/** Midnight UTC of a day, as the dashboard entities give dates. */
export function midnight(day: string): string {
  return `${day}T00:00:00Z`;
}
