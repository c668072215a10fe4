import { createPrivateKey, createPublicKey, generateKeyPair, webcrypto } from "node:crypto";
import { promisify } from "node:util";
import type { AppContext } from "../context.ts";
import type { StoredActorKeys } from "../db/repositories/local-actors.ts";

// Key handling without Fedify, so account creation does not load it.

const generate = promisify(generateKeyPair);
const PEM = { format: "pem" } as const;

/**
 * A new RSA-2048 and Ed25519 key pair, as PEM (SPKI public, PKCS #8 private). RSA signs the HTTP
 * Signatures every peer checks; Ed25519 signs object integrity proofs (FEP-8b32) and RFC 9421
 * signatures for the peers that take them. Generated off the main thread (about 40 ms for RSA).
 */
export async function generateActorKeys(): Promise<StoredActorKeys> {
  const [rsa, ed] = await Promise.all([generate("rsa", { modulusLength: 2048 }), generate("ed25519")]);
  return {
    rsaPublic: rsa.publicKey.export({ ...PEM, type: "spki" }).toString(),
    rsaPrivate: rsa.privateKey.export({ ...PEM, type: "pkcs8" }).toString(),
    ed25519Public: ed.publicKey.export({ ...PEM, type: "spki" }).toString(),
    ed25519Private: ed.privateKey.export({ ...PEM, type: "pkcs8" }).toString(),
  };
}

const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
const ED25519 = { name: "Ed25519" } as const;

async function importPair(publicPem: string, privatePem: string, algorithm: typeof RSA | typeof ED25519) {
  const spki = createPublicKey(publicPem).export({ format: "der", type: "spki" });
  const pkcs8 = createPrivateKey(privatePem).export({ format: "der", type: "pkcs8" });
  const [publicKey, privateKey] = await Promise.all([
    webcrypto.subtle.importKey("spki", spki, algorithm, true, ["verify"]),
    webcrypto.subtle.importKey("pkcs8", pkcs8, algorithm, true, ["sign"]),
  ]);
  return { publicKey, privateKey } as CryptoKeyPair;
}

/** The Web Crypto pairs Fedify signs with, RSA first (the `publicKey` every peer reads). */
export async function importActorKeys(keys: StoredActorKeys): Promise<CryptoKeyPair[]> {
  return Promise.all([
    importPair(keys.rsaPublic, keys.rsaPrivate, RSA),
    importPair(keys.ed25519Public, keys.ed25519Private, ED25519),
  ]);
}

interface Imported {
  stored: StoredActorKeys;
  pairs: CryptoKeyPair[];
}

// Imported pairs per context (test servers in one process keep apart), checked against the stored
// PEM on every use so a key replaced by another process is never signed with.
const importedByContext = new WeakMap<object, Map<string, Imported>>();
const MAX_IMPORTED = 1000;

async function cachedImport(ctx: AppContext, key: string, stored: StoredActorKeys): Promise<CryptoKeyPair[]> {
  let cache = importedByContext.get(ctx);
  if (!cache) {
    cache = new Map();
    importedByContext.set(ctx, cache);
  }
  const hit = cache.get(key);
  if (hit && hit.stored.rsaPrivate === stored.rsaPrivate && hit.stored.ed25519Private === stored.ed25519Private) {
    return hit.pairs;
  }
  const pairs = await importActorKeys(stored);
  if (cache.size >= MAX_IMPORTED) cache.delete(cache.keys().next().value as string);
  cache.set(key, { stored, pairs });
  return pairs;
}

/**
 * A local account's key pairs; an account created before keys existed (or whose keys were
 * lost) gets them now.
 */
export async function localActorKeyPairs(ctx: AppContext, accountId: string): Promise<CryptoKeyPair[]> {
  let stored = await ctx.repos.localActors.get(accountId);
  if (!stored) {
    await ctx.repos.localActors.fillIfMissing(accountId, await generateActorKeys());
    stored = await ctx.repos.localActors.get(accountId);
    if (!stored) throw new Error(`account ${accountId} has no keys and none could be stored`);
  }
  return cachedImport(ctx, accountId, stored);
}

/** Where the instance actor is served (Mastodon's path). */
export const INSTANCE_ACTOR_PATH = "/actor";

/** Site setting holding the instance actor's keys (it has no account row). */
export const INSTANCE_ACTOR_KEYS_SETTING = "instance_actor_keys";

function isStoredKeys(v: unknown): v is StoredActorKeys {
  const k = v as Partial<StoredActorKeys> | undefined;
  return (
    typeof k?.rsaPublic === "string" &&
    typeof k.rsaPrivate === "string" &&
    typeof k.ed25519Public === "string" &&
    typeof k.ed25519Private === "string"
  );
}

/**
 * The instance actor's key pairs, generated on first use and kept in site settings; read back
 * after writing so racing processes settle on one pair.
 */
export async function instanceActorKeyPairs(ctx: AppContext): Promise<CryptoKeyPair[]> {
  let stored = await ctx.repos.settings.get<unknown>(INSTANCE_ACTOR_KEYS_SETTING);
  if (!isStoredKeys(stored)) {
    await ctx.repos.settings.setIfAbsent(INSTANCE_ACTOR_KEYS_SETTING, await generateActorKeys());
    stored = await ctx.repos.settings.get<unknown>(INSTANCE_ACTOR_KEYS_SETTING);
    if (!isStoredKeys(stored)) throw new Error("the instance actor's keys could not be stored");
  }
  return cachedImport(ctx, "instance", stored);
}
