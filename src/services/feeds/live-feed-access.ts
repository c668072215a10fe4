import type { AppContext } from "../../context.ts";
import { Permission } from "../../lib/roles.ts";

/**
 * Who may read the live feeds (the public timeline's local and remote parts), as Mastodon 4.4's
 * site settings `local_live_feed_access` and `remote_live_feed_access`: `public` (anyone),
 * `authenticated` (signed-in users only) or `disabled` (nobody). Unset, they follow the older
 * `timeline_preview` setting: false means signed-in users only. Default: public.
 */
export type FeedAccess = "public" | "authenticated" | "disabled";

export const LIVE_FEED_SETTING = {
  local: "local_live_feed_access",
  remote: "remote_live_feed_access",
  timelinePreview: "timeline_preview",
} as const;

export interface LiveFeedAccess {
  local: FeedAccess;
  remote: FeedAccess;
}

const ACCESS: readonly FeedAccess[] = ["public", "authenticated", "disabled"];
const accessOf = (v: unknown): FeedAccess | undefined =>
  typeof v === "string" && (ACCESS as readonly string[]).includes(v) ? (v as FeedAccess) : undefined;

/** The operator's live feed access settings (one query). */
const keptAccess = new WeakMap<AppContext, { stamp: number; access: LiveFeedAccess }>();

export async function liveFeedAccess(ctx: AppContext): Promise<LiveFeedAccess> {
  // Read once while the settings stay the same (site_settings is among the change stamp's tables).
  const stamp = ctx.database.changeStamp();
  const known = keptAccess.get(ctx);
  if (stamp !== undefined && known?.stamp === stamp) return known.access;
  const access = await readLiveFeedAccess(ctx);
  if (stamp !== undefined) keptAccess.set(ctx, { stamp, access });
  return access;
}

async function readLiveFeedAccess(ctx: AppContext): Promise<LiveFeedAccess> {
  const s = await ctx.repos.settings.all();
  const fallback: FeedAccess = s[LIVE_FEED_SETTING.timelinePreview] === false ? "authenticated" : "public";
  return {
    local: accessOf(s[LIVE_FEED_SETTING.local]) ?? fallback,
    remote: accessOf(s[LIVE_FEED_SETTING.remote]) ?? fallback,
  };
}

/**
 * The access settings as they apply to one reader: staff whose role grants View live and topic
 * feeds (Mastodon 4.4's `view_feeds`) read a `disabled` feed as signed-in users do.
 */
export async function liveFeedAccessFor(ctx: AppContext, roleId: string | undefined): Promise<LiveFeedAccess> {
  const access = await liveFeedAccess(ctx);
  if (access.local !== "disabled" && access.remote !== "disabled") return access;
  if (roleId === undefined || !(await ctx.roles.can(roleId, Permission.viewFeeds))) return access;
  const open = (a: FeedAccess): FeedAccess => (a === "disabled" ? "authenticated" : a);
  return { local: open(access.local), remote: open(access.remote) };
}

/** Whether a reader (signed in or not) may read a feed with this access. */
export function mayRead(access: FeedAccess, signedIn: boolean): boolean {
  return access === "public" || (access === "authenticated" && signedIn);
}

/**
 * What a request for the public timeline may get: `signIn` when an anonymous reader asked for a
 * part open to signed-in users only (Mastodon answers such a request with "This method requires
 * an authenticated user"); `none` when nothing asked for is readable; else the parts to show
 * (a request for both parts narrows to the readable one, as Mastodon's PublicFeed does).
 */
export function liveFeedScope(
  access: LiveFeedAccess,
  wanted: { local: boolean; remote: boolean },
  signedIn: boolean,
): "signIn" | "none" | { local: boolean; remote: boolean } {
  const parts = wanted.local
    ? ["local" as const]
    : wanted.remote
      ? ["remote" as const]
      : ["local" as const, "remote" as const];
  if (!signedIn && parts.some((p) => access[p] === "authenticated")) return "signIn";
  const readable = parts.filter((p) => mayRead(access[p], signedIn));
  if (readable.length === 0) return "none";
  if (readable.length === parts.length) return wanted;
  return readable[0] === "local" ? { local: true, remote: false } : { local: false, remote: true };
}
