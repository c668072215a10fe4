import type { AppContext } from "../../context.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Device, DeviceKeys, OneTimeKey } from "../../db/repositories/crypto.ts";
import { ApiError } from "../../lib/errors.ts";
import { isPublicKey, isSignedBy } from "./key-checks.ts";

/** Who calls the encryption API: a user token (a device is per token) and its account. */
export interface CryptoCaller {
  accountId: string;
  tokenId: string;
}

export interface DeviceInput {
  deviceId?: string;
  name?: string;
  fingerprintKey?: string;
  identityKey?: string;
}

export interface OneTimeKeyInput {
  keyId?: string;
  key?: string;
  signature?: string;
}

/** A device as others see it: its public keys. */
export type DeviceView = DeviceKeys;

export interface QueryResult {
  accountId: string;
  devices: DeviceView[];
}

export interface ClaimResult extends OneTimeKey {
  accountId: string;
  deviceId: string;
}

/** One-time keys a device may hold at once (Olm clients keep about 50 uploaded). */
export const MAX_ONE_TIME_KEYS = 1000;
/** Accounts one query may name, devices one claim may name. */
export const MAX_QUERY = 80;
/** Remote accounts whose devices are fetched at once. */
const REMOTE_AT_ONCE = 4;

const notFound = () => new ApiError(404, "Record not found");
const invalid = (errors: string[]) => new ApiError(422, `Validation failed: ${errors.join(", ")}`);
const blank = (v: string | undefined): boolean => v === undefined || v.trim() === "";

/** The caller's device; Mastodon answers 404 when the token has uploaded none. */
export async function deviceOfCaller(ctx: AppContext, who: CryptoCaller): Promise<Device> {
  const device = await ctx.repos.crypto.deviceOfToken(who.tokenId);
  if (!device || device.accountId !== who.accountId) throw notFound();
  return device;
}

/** Mastodon's Device validations, in its order: presence first, then the keys' form. */
function checkDevice(d: DeviceInput): DeviceKeys {
  const errors: string[] = [];
  if (blank(d.name)) errors.push("Name can't be blank");
  if (blank(d.fingerprintKey)) errors.push("Fingerprint key can't be blank");
  if (blank(d.identityKey)) errors.push("Identity key can't be blank");
  if (!blank(d.fingerprintKey) && !isPublicKey(d.fingerprintKey as string)) {
    errors.push("Fingerprint key is not a valid Ed25519 or Curve25519 key");
  }
  if (!blank(d.identityKey) && !isPublicKey(d.identityKey as string)) {
    errors.push("Identity key is not a valid Ed25519 or Curve25519 key");
  }
  if (errors.length > 0) throw invalid(errors);
  return {
    deviceId: d.deviceId ?? "",
    name: d.name as string,
    fingerprintKey: (d.fingerprintKey as string).trim(),
    identityKey: (d.identityKey as string).trim(),
  };
}

/** Mastodon's OneTimeKey validations; the signature is the fingerprint key's, of the key's text. */
function checkOneTimeKey(k: OneTimeKeyInput, fingerprintKey: string): OneTimeKey {
  const errors: string[] = [];
  if (blank(k.keyId)) errors.push("Key id can't be blank");
  if (blank(k.key)) errors.push("Key can't be blank");
  if (blank(k.signature)) errors.push("Signature can't be blank");
  if (!blank(k.key) && !isPublicKey(k.key as string)) errors.push("Key is not a valid Ed25519 or Curve25519 key");
  if (!blank(k.signature) && !blank(k.key) && !isSignedBy(fingerprintKey, k.key as string, k.signature as string)) {
    errors.push("Signature is not a valid Ed25519 signature");
  }
  if (errors.length > 0) throw invalid(errors);
  return { keyId: k.keyId as string, key: k.key as string, signature: k.signature as string };
}

/**
 * `POST /api/v1/crypto/keys/upload`: the token's device takes the given identity (fields left out
 * keep their stored values) and gains the one-time keys, in one transaction: any invalid key
 * stores nothing.
 */
export async function uploadKeys(
  ctx: AppContext,
  who: CryptoCaller,
  input: { device?: DeviceInput; oneTimeKeys: OneTimeKeyInput[] },
): Promise<DeviceView> {
  const existing = await ctx.repos.crypto.deviceOfToken(who.tokenId);
  const merged: DeviceInput = {
    deviceId: existing?.deviceId,
    name: existing?.name,
    fingerprintKey: existing?.fingerprintKey,
    identityKey: existing?.identityKey,
    ...Object.fromEntries(Object.entries(input.device ?? {}).filter(([, v]) => v !== undefined)),
  };
  const keys = checkDevice(merged);
  const oneTimeKeys = input.oneTimeKeys.map((k) => ({
    ...checkOneTimeKey(k, keys.fingerprintKey),
    id: ctx.ids.next(),
  }));
  const at = new Date().toISOString();
  // Two tokens of one account uploading the same device id at once: the second transaction's
  // insert meets the first's row; run it again, and its delete replaces that device (last wins).
  for (let attempt = 1; ; attempt++) {
    try {
      return viewOf(await saveKeys(ctx, who, keys, oneTimeKeys, at));
    } catch (e) {
      if (attempt >= 3 || !isUniqueViolation(e)) throw e;
    }
  }
}

function saveKeys(
  ctx: AppContext,
  who: { tokenId: string; accountId: string },
  keys: DeviceKeys,
  oneTimeKeys: (ReturnType<typeof checkOneTimeKey> & { id: string })[],
  at: string,
): Promise<DeviceKeys> {
  return ctx.db.transaction().execute(async (trx) => {
    const saved = await ctx.repos.crypto.saveDevice(
      { id: ctx.ids.next(), accessTokenId: who.tokenId, accountId: who.accountId, keys, at },
      trx,
    );
    await ctx.repos.crypto.addOneTimeKeys(saved.id, oneTimeKeys, at, trx);
    if ((await ctx.repos.crypto.countOneTimeKeys(saved.id, trx)) > MAX_ONE_TIME_KEYS) {
      throw invalid([`One time keys are too many (maximum is ${MAX_ONE_TIME_KEYS})`]);
    }
    return saved;
  });
}

const viewOf = (d: DeviceKeys): DeviceView => ({
  deviceId: d.deviceId,
  name: d.name,
  fingerprintKey: d.fingerprintKey,
  identityKey: d.identityKey,
});

/** `GET /api/v1/crypto/keys/count`: the one-time keys the caller's device still has. */
export async function oneTimeKeyCount(ctx: AppContext, who: CryptoCaller): Promise<number> {
  const device = await deviceOfCaller(ctx, who);
  return ctx.repos.crypto.countOneTimeKeys(device.id);
}

/** Accounts that can take part: known here, neither suspended nor deleted. */
async function reachable(ctx: AppContext, ids: readonly string[]): Promise<Map<string, Account>> {
  const accounts = await ctx.repos.accounts.getByIds([...new Set(ids)]);
  return new Map(accounts.filter((a) => a.suspendedAt === null).map((a) => [a.id, a]));
}

async function caller(ctx: AppContext, who: CryptoCaller): Promise<Account> {
  const account = await ctx.repos.accounts.getById(who.accountId);
  if (!account) throw notFound();
  return account;
}

/**
 * `POST /api/v1/crypto/keys/query`: the devices of each account asked for, in the order asked;
 * unknown accounts are left out. A remote account's devices are read from its `devices`
 * collection on its server (an account whose server cannot be reached has none).
 */
export async function queryKeys(ctx: AppContext, who: CryptoCaller, ids: readonly string[]): Promise<QueryResult[]> {
  const accounts = await reachable(ctx, ids.slice(0, MAX_QUERY));
  const known = [...accounts.values()];
  const local = await ctx.repos.crypto.liveDevicesOf(known.filter((a) => a.domain === null).map((a) => a.id));
  const remote = known.filter((a) => a.domain !== null);
  const remoteDevices = new Map<string, DeviceView[]>();
  if (remote.length > 0) {
    const viewer = await caller(ctx, who);
    const { remoteDevices: fetchDevices } = await import("../../federation/crypto/remote.ts");
    // A few servers at a time: each answer waits on a remote server.
    for (let i = 0; i < remote.length; i += REMOTE_AT_ONCE) {
      await Promise.all(
        remote
          .slice(i, i + REMOTE_AT_ONCE)
          .map(async (a) => remoteDevices.set(a.id, (await fetchDevices(ctx, viewer, a)).map(viewOf))),
      );
    }
  }
  const seen = new Set<string>();
  const out: QueryResult[] = [];
  for (const id of ids) {
    const account = accounts.get(id);
    if (!account || seen.has(id)) continue;
    seen.add(id);
    const devices =
      account.domain === null ? local.filter((d) => d.accountId === id).map(viewOf) : (remoteDevices.get(id) ?? []);
    out.push({ accountId: id, devices });
  }
  return out;
}

/**
 * `POST /api/v1/crypto/keys/claim`: one one-time key of each device named, taken for good (no key
 * is ever handed out twice); devices that are unknown or have no key left are left out. A remote
 * device's key is claimed from its server with a signed request.
 */
export async function claimKeys(
  ctx: AppContext,
  who: CryptoCaller,
  wanted: readonly { accountId: string; deviceId: string }[],
): Promise<ClaimResult[]> {
  const list = wanted.slice(0, MAX_QUERY);
  const accounts = await reachable(
    ctx,
    list.map((w) => w.accountId),
  );
  const out: ClaimResult[] = [];
  let viewer: Account | undefined;
  for (const w of list) {
    const account = accounts.get(w.accountId);
    if (!account) continue;
    let key: OneTimeKey | undefined;
    if (account.domain === null) key = await claimLocalKey(ctx, account.id, w.deviceId);
    else {
      viewer ??= await caller(ctx, who);
      const { claimRemoteKey } = await import("../../federation/crypto/remote.ts");
      key = await claimRemoteKey(ctx, viewer, account, w.deviceId);
    }
    if (key) out.push({ accountId: account.id, deviceId: w.deviceId, ...key });
  }
  return out;
}

/** Takes one one-time key of a local device (for the API and for remote servers' claims). */
export async function claimLocalKey(
  ctx: AppContext,
  accountId: string,
  deviceId: string,
): Promise<OneTimeKey | undefined> {
  const device = await ctx.repos.crypto.liveDevice(accountId, deviceId);
  return device ? ctx.repos.crypto.claimOneTimeKey(device.id) : undefined;
}

/** A local account's devices, for its `devices` collection; undefined when it is not shown. */
export async function devicesOfLocalAccount(ctx: AppContext, account: Account): Promise<DeviceView[]> {
  return (await ctx.repos.crypto.liveDevicesOf([account.id])).map(viewOf);
}
