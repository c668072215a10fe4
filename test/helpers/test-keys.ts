import { generateKeyPair } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { StoredActorKeys } from "../../src/db/repositories/local-actors.ts";

/**
 * RSA-2048 key pairs generated once per machine and handed out to test accounts and fake remote
 * actors. Generating one costs about 40 ms of CPU (far more on a busy machine), and the suite
 * makes well over a thousand accounts and actors: generating them was the largest single cost of
 * many test files. Each pair goes to one account or actor only within a process (every server,
 * fake remote and actor of a test file lives in one process), so no two of them ever share a key
 * and a signature checked against the wrong actor's key still fails; when a file needs more than
 * the pool holds, the rest are generated as before.
 */

const generate = promisify(generateKeyPair);

/** Enough for the busiest test file; more are generated when it runs out. */
export const POOL_SIZE = 400;
/** Versioned: a change of format or size makes a new file rather than misreading an old one. */
const POOL_FILE = join(tmpdir(), `gannet-test-rsa-2048-x${POOL_SIZE}-v1.json`);

interface PemPair {
  publicKey: string;
  privateKey: string;
}

async function newRsaPair(): Promise<PemPair> {
  return generate("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}

/** The pool file's pairs, when it holds POOL_SIZE distinct well-formed ones. */
async function readPool(): Promise<PemPair[] | undefined> {
  try {
    const pairs = JSON.parse(await readFile(POOL_FILE, "utf8")) as PemPair[];
    const ok =
      Array.isArray(pairs) &&
      pairs.length === POOL_SIZE &&
      pairs.every((p) => p?.publicKey?.includes("BEGIN PUBLIC KEY") && p.privateKey?.includes("BEGIN PRIVATE KEY")) &&
      new Set(pairs.map((p) => p.publicKey)).size === POOL_SIZE;
    return ok ? pairs : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure the pool file exists (the test run's global setup calls this once, so test files
 * started together do not all generate it). Written whole, then renamed into place.
 */
export async function ensureKeyPool(): Promise<PemPair[]> {
  const existing = await readPool();
  if (existing) return existing;
  const pairs = await Promise.all(Array.from({ length: POOL_SIZE }, newRsaPair));
  const temp = `${POOL_FILE}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(pairs), { mode: 0o600 });
  await rename(temp, POOL_FILE);
  return pairs;
}

let pool: Promise<PemPair[]> | undefined;
let handedOut = 0;

/** An RSA-2048 pair (PEM: SPKI public, PKCS #8 private) no other caller in this process got. */
export async function testRsaPair(): Promise<PemPair> {
  pool ??= ensureKeyPool();
  const pairs = await pool;
  const i = handedOut++;
  return i < pairs.length ? pairs[i] : newRsaPair();
}

/** Key pairs for a test server's new account: RSA from the pool, Ed25519 fresh (it is cheap). */
export async function testActorKeys(): Promise<StoredActorKeys> {
  const [rsa, ed] = await Promise.all([
    testRsaPair(),
    promisify(generateKeyPair)("ed25519", {
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    }),
  ]);
  return {
    rsaPublic: rsa.publicKey,
    rsaPrivate: rsa.privateKey,
    ed25519Public: ed.publicKey,
    ed25519Private: ed.privateKey,
  };
}

const RSA_SIGNING = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

/** A pool pair as the Web Crypto keys Fedify's `generateCryptoKeyPair("RSASSA-PKCS1-v1_5")` makes. */
export async function testRsaCryptoKeyPair(): Promise<CryptoKeyPair> {
  const { publicKey, privateKey } = await testRsaPair();
  const der = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ""), "base64");
  const [pub, priv] = await Promise.all([
    crypto.subtle.importKey("spki", der(publicKey), RSA_SIGNING, true, ["verify"]),
    crypto.subtle.importKey("pkcs8", der(privateKey), RSA_SIGNING, true, ["sign"]),
  ]);
  return { publicKey: pub, privateKey: priv };
}
