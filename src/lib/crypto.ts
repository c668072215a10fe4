import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A random URL-safe secret (tokens, client ids, codes). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** SHA-256 hex digest: how tokens, codes and client secrets are stored. */
export function sha256(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

export function hmac(key: string, data: string): string {
  return createHmac("sha256", key).update(data).digest("base64url");
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
