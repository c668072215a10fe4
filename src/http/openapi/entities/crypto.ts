import { z } from "zod";
import { count, dateTime, entity, id } from "./common.ts";

/** End-to-end encryption (Mastodon 3.3 to 4.2; Mastodon's documentation never described them). */

export const CryptoDevice = entity(
  "CryptoDevice",
  "A device's public keys (Mastodon's `REST::Keys::DeviceSerializer`): one device per access token.",
  z.object({
    device_id: z.string(),
    name: z.string(),
    identity_key: z.string().describe("Base64 Curve25519 public key"),
    fingerprint_key: z.string().describe("Base64 Ed25519 public key"),
  }),
);

export const CryptoQueryResult = entity(
  "CryptoQueryResult",
  "An account and its devices (`REST::Keys::QueryResultSerializer`).",
  z.object({ account_id: id(), devices: z.array(CryptoDevice) }),
);

export const CryptoClaimResult = entity(
  "CryptoClaimResult",
  "A one-time key claimed from a device, handed out once (`REST::Keys::ClaimResultSerializer`).",
  z.object({ account_id: id(), device_id: z.string(), key_id: z.string(), key: z.string(), signature: z.string() }),
);

export const CryptoKeyCount = entity(
  "CryptoKeyCount",
  "How many one-time keys the token's device still has.",
  z.object({ one_time_keys: count() }),
);

export const EncryptedMessage = entity(
  "EncryptedMessage",
  "A message for the token's device, as the sender's device sent it: ciphertext, its HMAC (`digest`) and the server's franking token; `account_id` and `device_id` are the sender's.",
  z.object({
    id: id(),
    account_id: id(),
    device_id: z.string(),
    type: z.number().int(),
    body: z.string(),
    digest: z.string(),
    message_franking: z.string(),
    created_at: dateTime(),
  }),
);
