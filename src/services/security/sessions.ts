import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { WebSessionRow } from "../../db/repositories/security.ts";
import type { User } from "../../db/repositories/users.ts";
import { sha256 } from "../../lib/crypto.ts";
import { sessionUser } from "../oauth/sign-in.ts";
import { accessTokenChannel, publishAll } from "../streaming/channels.ts";

/**
 * Signed-in browser sessions, one row each (Mastodon's session activations): the signed cookie
 * carries the session's random nonce and the row its SHA-256, so deleting the row signs that
 * browser out at once. Rows remember the browser (User-Agent), the address and the last use.
 */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Last use is written at most this often (a page view does not always write). */
const TOUCH_EVERY_MS = 5 * 60 * 1000;
/** Sessions kept per user; older ones are deleted when a new one starts. */
const KEEP_PER_USER = 50;
const USER_AGENT_MAX = 512;

export type { WebSessionRow };

/**
 * A short fingerprint of the user's password hash, kept in the session cookie and row: once the
 * password changes, sessions started before no longer match and are anonymous.
 */
export function passwordFingerprint(user: Pick<User, "encryptedPassword">): string {
  const known = fingerprints.get(user);
  if (known !== undefined && known.of === user.encryptedPassword) return known.fingerprint;
  const fingerprint = sha256(user.encryptedPassword).slice(0, 16);
  fingerprints.set(user, { of: user.encryptedPassword, fingerprint });
  return fingerprint;
}

/** Fingerprints by user object: a remembered session's user is the same object request after request. */
const fingerprints = new WeakMap<object, { of: string; fingerprint: string }>();

/** Records a new signed-in session; older sessions of the user beyond the limit, or of an old password, go. */
export async function createWebSession(
  ctx: AppContext,
  user: User,
  nonce: string,
  client: { userAgent: string | undefined; ip: string | undefined },
): Promise<string> {
  const id = ctx.ids.next();
  const userId = user.id;
  const now = Date.now();
  const fingerprint = passwordFingerprint(user);
  await ctx.repos.security.deleteStaleSessions(userId, fingerprint);
  await ctx.repos.security.insertSession({
    id,
    userId,
    sessionHash: sha256(nonce),
    passwordFingerprint: fingerprint,
    userAgent: (client.userAgent ?? "").slice(0, USER_AGENT_MAX),
    ip: client.ip ?? null,
    at: new Date(now).toISOString(),
  });
  await ctx.repos.security.pruneSessions(userId, KEEP_PER_USER, new Date(now - SESSION_LIFETIME_MS).toISOString());
  return id;
}

/** The live session row for this nonce and user (its last use refreshed now and then), or undefined once revoked. */
export async function findWebSession(
  ctx: AppContext,
  nonce: string,
  userId: string,
  ip: string | undefined,
): Promise<WebSessionRow | undefined> {
  const row = await ctx.repos.security.sessionByHash(sha256(nonce));
  if (!row || row.userId !== userId) return undefined;
  const now = Date.now();
  if (now - Date.parse(row.updatedAt) >= TOUCH_EVERY_MS) {
    const at = new Date(now).toISOString();
    await ctx.repos.security.touchSession(row.id, ip ?? row.ip, at);
    return { ...row, updatedAt: at, ip: ip ?? row.ip };
  }
  return row;
}

/** A signed-in session as a page sees it: its user and account, and its row. */
export interface LiveSession {
  user: User;
  account: Account;
  row: WebSessionRow;
}

const resolved = new WeakMap<AppContext, Map<string, { stamp: number; value: LiveSession | undefined }>>();
const RESOLVED_MAX = 10_000;

/**
 * The live session of a cookie's nonce and user, with the user and account (undefined when the
 * session was revoked or the user may not sign in). Remembered while the database's change stamp
 * stays the same (users, accounts, roles, tokens and web_sessions are tracked tables), as bearer
 * tokens are, and read again when the row's last use is due to be refreshed.
 */
export async function resolveWebSession(
  ctx: AppContext,
  nonce: string,
  userId: string,
  ip: string | undefined,
): Promise<LiveSession | undefined> {
  const stamp = ctx.database.changeStamp();
  let cache = resolved.get(ctx);
  if (cache === undefined) {
    cache = new Map();
    resolved.set(ctx, cache);
  }
  const key = `${userId}:${nonce}`;
  const known = stamp === undefined ? undefined : cache.get(key);
  if (
    known !== undefined &&
    known.stamp === stamp &&
    (known.value === undefined || Date.now() - Date.parse(known.value.row.updatedAt) < TOUCH_EVERY_MS)
  ) {
    return known.value;
  }
  const [found, row] = await Promise.all([sessionUser(ctx, userId), findWebSession(ctx, nonce, userId, ip)]);
  const value = found && row ? { ...found, row } : undefined;
  if (stamp !== undefined) {
    if (cache.size >= RESOLVED_MAX) cache.clear();
    cache.set(key, { stamp, value });
  }
  return value;
}

export async function endWebSession(ctx: AppContext, nonce: string): Promise<void> {
  const row = await ctx.repos.security.sessionByHash(sha256(nonce));
  await closingClientStreams(ctx, row ? [row.id] : [], () => ctx.repos.security.deleteSessionByHash(sha256(nonce)));
}

/**
 * Runs `remove` (which deletes these sessions, and with them their web client tokens, migration
 * 0050), then closes the streaming connections those tokens held.
 */
async function closingClientStreams<T>(ctx: AppContext, sessionIds: string[], remove: () => Promise<T>): Promise<T> {
  const tokenIds = await ctx.repos.oauth.tokenIdsOfWebSessions(sessionIds);
  const result = await remove();
  if (tokenIds.length > 0) await publishAll(ctx, tokenIds.map(accessTokenChannel), "kill", null);
  return result;
}

/** The user's live sessions, most recently used first (those of an older password are deleted first). */
export async function listWebSessions(ctx: AppContext, user: User): Promise<WebSessionRow[]> {
  await ctx.repos.security.deleteStaleSessions(user.id, passwordFingerprint(user));
  return ctx.repos.security.sessionsOf(user.id);
}

/** Revokes one of the user's sessions (no other user's): answers whether it existed. */
export function revokeWebSession(ctx: AppContext, userId: string, id: string): Promise<boolean> {
  return closingClientStreams(ctx, [id], () => ctx.repos.security.deleteSession(userId, id));
}

/** Revokes every session of the user but `keepId`; answers how many went. */
export async function revokeOtherWebSessions(
  ctx: AppContext,
  userId: string,
  keepId: string | undefined,
): Promise<number> {
  const ids = (await ctx.repos.security.sessionsOf(userId)).map((r) => r.id).filter((id) => id !== keepId);
  return closingClientStreams(ctx, ids, () => ctx.repos.security.deleteSessionsOf(userId, keepId));
}

/** A person's name for the browser and system a User-Agent string names (best effort). */
export function describeUserAgent(ua: string): { browser: string; platform: string } {
  const browser = (
    [
      [/Edg(e|A|iOS)?\//, "Microsoft Edge"],
      [/OPR\/|Opera/, "Opera"],
      [/Vivaldi\//, "Vivaldi"],
      [/SamsungBrowser\//, "Samsung Internet"],
      [/Firefox\/|FxiOS\//, "Firefox"],
      [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
      [/Safari\//, "Safari"],
      [/curl\//, "curl"],
    ] as const
  ).find(([re]) => re.test(ua))?.[1];
  const platform = (
    [
      [/Android/, "Android"],
      [/iPhone|iPad|iPod/, "iOS"],
      [/CrOS/, "ChromeOS"],
      [/Mac OS X|Macintosh/, "macOS"],
      [/Windows/, "Windows"],
      [/Linux/, "Linux"],
      [/FreeBSD|OpenBSD|NetBSD/, "BSD"],
    ] as const
  ).find(([re]) => re.test(ua))?.[1];
  return { browser: browser ?? "", platform: platform ?? "" };
}
