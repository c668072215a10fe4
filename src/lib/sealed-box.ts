import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Secrets kept at rest sealed with AES-256-GCM under a key derived from SECRET_KEY and a purpose
 * label (each purpose its own key), so a copy of the database alone reveals none of them.
 * Changing SECRET_KEY makes what was sealed unreadable: `open` then answers undefined.
 */
function keyOf(secretKey: string, purpose: string): Buffer {
  return createHash("sha256").update(`${purpose}\0${secretKey}`).digest();
}

/** `plaintext` sealed: IV, tag and ciphertext, base64url. */
export function seal(secretKey: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secretKey, purpose), iv);
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** What `seal` sealed, or undefined when the box was sealed with another key (or is damaged). */
export function open(secretKey: string, purpose: string, box: string): string | undefined {
  try {
    const raw = Buffer.from(box, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", keyOf(secretKey, purpose), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
