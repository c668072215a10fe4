import { createCipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Mastodon's message franking: every stored or forwarded encrypted message carries a token that
 * only this server can open, sealing who sent it to whom, when, and the HMAC the sender gave (and
 * the franking token of the sender's server, for a message from another server). A recipient who
 * reports a message hands the token back, and the server can then vouch that this sender sent
 * this ciphertext, without ever having read it. Mastodon seals it with a rotating system key;
 * Gannet with a key derived from SECRET_KEY (AES-256-GCM), so no key table is needed.
 */
export interface Franking {
  hmac: string;
  sourceAccountId: string;
  targetAccountId: string;
  /** The sending server's own token, for a message that came from another server. */
  originalFranking?: string;
  timestamp: string;
}

function keyOf(secretKey: string): Buffer {
  return createHash("sha256").update(`gannet message franking\0${secretKey}`).digest();
}

export function sealFranking(secretKey: string, franking: Franking): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secretKey), iv);
  const body = JSON.stringify({
    hmac: franking.hmac,
    source_account_id: franking.sourceAccountId,
    target_account_id: franking.targetAccountId,
    original_franking: franking.originalFranking ?? null,
    timestamp: franking.timestamp,
  });
  const sealed = Buffer.concat([cipher.update(body, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}
