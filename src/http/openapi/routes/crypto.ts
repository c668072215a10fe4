import { z } from "zod";
import { claimSchema, clearSchema, deliverySchema, querySchema, uploadSchema } from "../../api/v1/crypto/schemas.ts";
import type { DocArea } from "../types.ts";
import { d, EMPTY, pageOf } from "./common.ts";

const noDevice = "404 `Record not found` when the token has uploaded no device.";
const activity = {
  schema: { type: "object", description: "ActivityStreams JSON-LD" },
  type: "application/activity+json",
  description: "ActivityPub JSON",
};
const federation = { auth: "none" as const, tags: ["Federation"], pathDescriptions: { username: "A local username" } };

/** End-to-end encryption. */
export const cryptoDocs: DocArea = {
  tag: "Encrypted messages",
  description: "End-to-end encryption: device keys and encrypted messages (Mastodon 3.3 to 4.2)",
  routes: {
    "POST /api/v1/crypto/keys/upload": d("Set the token's device keys and add one-time keys", "CryptoDevice", {
      body: uploadSchema,
      description:
        "One device per access token. Changing its id or keys drops its one-time keys and messages; another token's device of the same id is replaced. Each one-time key must be signed by the fingerprint key (422 otherwise).",
    }),
    "POST /api/v1/crypto/keys/query": d("The devices of accounts", "CryptoQueryResult[]", {
      body: querySchema,
      description: "A remote account's devices are read from its server's `devices` collection.",
    }),
    "POST /api/v1/crypto/keys/claim": d("Claim one one-time key of each device", "CryptoClaimResult[]", {
      body: claimSchema,
      description: "A key is handed out once; devices without keys left are left out.",
    }),
    "GET /api/v1/crypto/keys/count": d("How many one-time keys the token's device has", "CryptoKeyCount", {
      description: noDevice,
    }),
    "POST /api/v1/crypto/deliveries": d("Deliver messages from the token's device", EMPTY, {
      body: deliverySchema,
      description: `One message per recipient device, local or remote; an unknown account or local device is a 404 and nothing is sent. ${noDevice}`,
      errors: [400, 404],
    }),
    "GET /api/v1/crypto/encrypted_messages": pageOf("The token's device's messages", "EncryptedMessage", 80, 160, {
      description: noDevice,
    }),
    "POST /api/v1/crypto/encrypted_messages/clear": d("Delete the device's messages up to an id", EMPTY, {
      body: clearSchema,
      description: noDevice,
    }),
    "GET /users/:username/collections/devices": d("An actor's end-to-end encryption devices", activity, {
      ...federation,
      description: "A `Collection` of Mastodon's `Device` objects, each with its `claim` URL.",
    }),
    "POST /users/:username/claim": d("Claim one of a device's one-time keys (server to server)", activity, {
      ...federation,
      query: z.object({ id: z.string().describe("The device id") }),
      description:
        "Must carry the HTTP signature of a remote account (401 otherwise); 404 when the device has no key left.",
      answers: { 401: null },
    }),
  },
};
