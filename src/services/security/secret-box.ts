import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Second-factor secrets at rest: sealed with AES-256-GCM under a key derived from SECRET_KEY, so a
 * copy of the database alone does not give anyone the TOTP secrets. Changing SECRET_KEY makes
 * the sealed secrets unreadable (their users then sign in with a recovery code, or an admin
 * turns two-factor sign-in off).
 */
function keyOf(secretKey: string): Buffer {
  return createHash("sha256").update(`gannet second factor secret\0${secretKey}`).digest();
}

export function sealSecret(secretKey: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secretKey), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The secret, or undefined when the box was sealed with another secret key (or is damaged). */
export function openSecret(secretKey: string, box: string): string | undefined {
  try {
    const raw = Buffer.from(box, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", keyOf(secretKey), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
