import type { AppContext } from "../../context.ts";
import type { ActivityWeek } from "../../serializers/instance-texts.ts";
import { type TtlCached, ttlCached } from "./ttl-cache.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
const ACTIVITY_WEEKS = 12;

/** Usage numbers shared by NodeInfo and instance v1/v2. */
export interface InstanceStats {
  /** Members: confirmed, approved, unsuspended local users. */
  userCount: number;
  /** Users signed in within 30 days. */
  activeMonth: number;
  /** Users signed in within 180 days. */
  activeHalfyear: number;
  localPosts: number;
  /** Remote domains known to this server. */
  peers: string[];
}

export interface InstanceStatsService {
  stats: TtlCached<InstanceStats>;
  activity: TtlCached<ActivityWeek[]>;
}

export async function loadInstanceStats(ctx: AppContext, now = Date.now()): Promise<InstanceStats> {
  const instance = ctx.repos.instance;
  const since = (days: number) => new Date(now - days * DAY_MS).toISOString();
  const [userCount, activeMonth, activeHalfyear, localPosts, peers] = await Promise.all([
    instance.countMembers(),
    ctx.repos.users.countActiveSince(since(30)),
    ctx.repos.users.countActiveSince(since(180)),
    ctx.repos.accounts.countLocalStatuses(),
    ctx.repos.accounts.peers(),
  ]);
  return { userCount, activeMonth, activeHalfyear, localPosts, peers };
}

/** Monday 00:00 UTC of the week holding `t` (Mastodon's weeks start on Monday). */
export function weekStart(t: number): number {
  const d = new Date(t);
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - sinceMonday);
}

/**
 * The last 12 weeks, newest first. Logins count users whose latest sign-in falls in the week
 * (users keep only their latest sign-in time, so a user counts once, in their latest week).
 * Statuses stay 0 until statuses are stored.
 */
export async function loadActivity(ctx: AppContext, now = Date.now()): Promise<ActivityWeek[]> {
  const first = weekStart(now);
  const weeks = Array.from({ length: ACTIVITY_WEEKS }, (_, i) => first - i * WEEK_MS);
  return Promise.all(
    weeks.map(async (week) => {
      const from = new Date(week).toISOString();
      const to = new Date(week + WEEK_MS).toISOString();
      const [logins, registrations] = await Promise.all([
        ctx.repos.users.countSignedInBetween(from, to),
        ctx.repos.users.countCreatedBetween(from, to),
      ]);
      return { week, statuses: 0, logins, registrations };
    }),
  );
}

/** Stats and activity, each recomputed at most once per INSTANCE_STATS_CACHE_SECONDS. */
export function createInstanceStats(ctx: AppContext): InstanceStatsService {
  const ttl = ctx.config.instanceStatsCacheSeconds * 1000;
  return {
    stats: ttlCached(ttl, () => loadInstanceStats(ctx)),
    activity: ttlCached(ttl, () => loadActivity(ctx)),
  };
}
