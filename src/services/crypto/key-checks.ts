import { createPublicKey, verify } from "node:crypto";

/**
 * Mastodon's checks of uploaded keys: a public key is 32 bytes of base64 (Ed25519 or Curve25519:
 * only the length can be told), and a one-time key's signature is an Ed25519 signature of the
 * key's text by the device's fingerprint key. Olm writes base64 without padding; both forms pass.
 */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function decode(text: string): Buffer | undefined {
  const t = text.trim();
  return BASE64.test(t) ? Buffer.from(t, "base64") : undefined;
}

export function isPublicKey(text: string): boolean {
  return decode(text)?.length === 32;
}

/** Whether `signature` is `fingerprintKey`'s Ed25519 signature of `message`. */
export function isSignedBy(fingerprintKey: string, message: string, signature: string): boolean {
  const raw = decode(fingerprintKey);
  const sig = decode(signature);
  if (raw?.length !== 32 || sig?.length !== 64) return false;
  try {
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
    return verify(null, Buffer.from(message, "utf8"), key, sig);
  } catch {
    return false;
  }
}
