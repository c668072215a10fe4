import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * The access token a push subscription was made with, sealed with a key derived from the server's
 * secret key (AES-256-GCM). Mastodon's push payload carries the token so that the client can fetch
 * the notification; Gannet stores tokens only as hashes, so the subscription keeps its own sealed
 * copy, unreadable from a copy of the database without the secret key.
 */
function keyOf(secretKey: string): Buffer {
  return createHash("sha256").update(`gannet web push token\0${secretKey}`).digest();
}

export function sealToken(secretKey: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secretKey), iv);
  const sealed = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The token, or undefined when the box was sealed with another secret key. */
export function openToken(secretKey: string, box: string): string | undefined {
  try {
    const raw = Buffer.from(box, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", keyOf(secretKey), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
