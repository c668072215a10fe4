import { z } from "zod";
import { intish, text } from "../../../validate.ts";

/** Request schemas of the end-to-end encryption API (Mastodon 3.3 to 4.2), shared with its description. */

const field = (max: number) => text(max).optional();

export const deviceSchema = z.object({
  device_id: field(255).describe("The client's id for the device"),
  name: field(255).describe("A name for the device"),
  fingerprint_key: field(1024).describe("Base64 Ed25519 public key"),
  identity_key: field(1024).describe("Base64 Curve25519 public key"),
});

export const oneTimeKeySchema = z.object({
  key_id: field(255),
  key: field(1024).describe("Base64 Curve25519 public key"),
  signature: field(1024).describe("Base64 Ed25519 signature of `key` by the fingerprint key"),
});

/** One-time keys one upload may carry. */
export const MAX_UPLOAD = 100;

export const uploadSchema = z.object({
  device: deviceSchema.optional(),
  one_time_keys: z.array(oneTimeKeySchema).max(MAX_UPLOAD, `is too long (maximum is ${MAX_UPLOAD} keys)`),
});

export const querySchema = z.object({
  id: z.array(text(30)).describe("Account ids, as `id[]=1&id[]=2`"),
});

export const claimSchema = z.object({
  device: z
    .array(z.object({ account_id: field(30), device_id: field(255) }))
    .describe("The devices, as `device[][account_id]=1&device[][device_id]=abc`"),
});

/** One message per recipient device; `body` and `hmac` are ciphertext and its HMAC, kept as given. */
export const deliverySchema = z.object({
  device: z.array(
    z.object({
      account_id: text(30),
      device_id: text(255),
      type: intish.pipe(
        z
          .number()
          .min(0)
          .max(2 ** 31 - 1),
      ),
      body: text(65_536),
      hmac: text(4096),
    }),
  ),
});

export const clearSchema = z.object({ up_to_id: z.string().optional().describe("The newest message to delete") });
