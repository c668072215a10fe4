import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { OneTimeKey } from "../../db/repositories/crypto.ts";
import { isAccountDeleted, isAccountPublic } from "../../policies/accounts.ts";
import { claimLocalKey, type DeviceView } from "./devices.ts";

/** A local account whose actor other servers may see: confirmed, approved, neither suspended nor deleted. */
async function shownAccount(ctx: AppContext, username: string): Promise<Account | undefined> {
  const account = await ctx.repos.accounts.getByUsername(username, null);
  if (!account || account.suspendedAt !== null || isAccountDeleted(account)) return undefined;
  return isAccountPublic(account, await ctx.repos.users.getByAccountId(account.id)) ? account : undefined;
}

/** The actor URL of a local account (the `devices` collection and claim URLs hang off it). */
export const actorUrlOf = (ctx: AppContext, account: Account): string =>
  `${ctx.config.baseUrl}/users/${encodeURIComponent(account.username)}`;

/** `GET /users/:username/collections/devices`: the account's devices; undefined when it is not shown. */
export async function devicesCollection(
  ctx: AppContext,
  username: string,
): Promise<{ actorUrl: string; devices: DeviceView[] } | undefined> {
  const account = await shownAccount(ctx, username);
  if (!account) return undefined;
  const devices = await ctx.repos.crypto.liveDevicesOf([account.id]);
  return { actorUrl: actorUrlOf(ctx, account), devices };
}

/**
 * `POST /users/:username/claim?id=`: another server claims one of the account's one-time keys for
 * one of its users (Mastodon's ActivityPub::ClaimsController): the request must be signed by an
 * account of a server federated with. `unsigned` when it is not, `undefined` when there is no
 * such account or device, or no key left.
 */
export async function claimForRemote(
  ctx: AppContext,
  request: Request,
  username: string,
  deviceId: string | undefined,
): Promise<OneTimeKey | "unsigned" | undefined> {
  const { signingAccount } = await import("../../federation/crypto/claims.ts");
  if (!(await signingAccount(ctx, request))) return "unsigned";
  const account = await shownAccount(ctx, username);
  if (!account || deviceId === undefined) return undefined;
  return claimLocalKey(ctx, account.id, deviceId);
}
