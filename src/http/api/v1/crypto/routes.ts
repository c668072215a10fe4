import type { Context, Hono } from "hono";
import { ApiError, ERR } from "../../../../lib/errors.ts";
import {
  serializeClaimResult,
  serializeDeviceKeys,
  serializeEncryptedMessage,
  serializeQueryResult,
} from "../../../../serializers/crypto.ts";
import {
  type CryptoCaller,
  claimKeys,
  oneTimeKeyCount,
  queryKeys,
  uploadKeys,
} from "../../../../services/crypto/devices.ts";
import { clearMessages, deliverMessages, listMessages } from "../../../../services/crypto/messages.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, asHash, asHashList, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { validate } from "../../../validate.ts";
import { cryptoFederationRoutes } from "./federation-routes.ts";
import { claimSchema, deliverySchema, querySchema, uploadSchema } from "./schemas.ts";

/** Mastodon's default page of encrypted messages (twice that at most). */
const MESSAGES_PAGE = 80;

/** The token's device is the caller's: every call names the account and the access token. */
function callerOf(c: Context<HonoEnv>): CryptoCaller {
  const auth = c.get("auth");
  if (!auth) throw new ApiError(401, ERR.invalidToken);
  return { accountId: currentAccount(c).id, tokenId: auth.token.id };
}

/**
 * End-to-end encryption (Mastodon 3.3 to 4.2), behind the `crypto` scope: a device per access
 * token with its public keys and one-time keys, and the encrypted messages devices deliver to one
 * another. The server keeps ciphertext only. The ActivityPub side (devices collection, claims)
 * is in federation-routes.ts.
 */
export function cryptoRoutes(app: Hono<HonoEnv>): void {
  const guard = requireUser("crypto");

  app.post("/api/v1/crypto/keys/upload", guard, async (c) => {
    const p = await readParams(c);
    const input = validate(uploadSchema, {
      device: asHash(p.device),
      one_time_keys: asHashList(p.one_time_keys) ?? [],
    });
    const d = input.device;
    const device = await uploadKeys(c.env.ctx, callerOf(c), {
      device: d && {
        deviceId: d.device_id,
        name: d.name,
        fingerprintKey: d.fingerprint_key,
        identityKey: d.identity_key,
      },
      oneTimeKeys: input.one_time_keys.map((k) => ({ keyId: k.key_id, key: k.key, signature: k.signature })),
    });
    return c.json(serializeDeviceKeys(device));
  });

  app.post("/api/v1/crypto/keys/query", guard, async (c) => {
    const p = await readParams(c);
    const { id } = validate(querySchema, {
      id: (asArray(p.id) ?? []).map((v) => (typeof v === "number" ? String(v) : v)),
    });
    const results = await queryKeys(c.env.ctx, callerOf(c), id);
    return c.json(results.map(serializeQueryResult));
  });

  app.post("/api/v1/crypto/keys/claim", guard, async (c) => {
    const p = await readParams(c);
    const { device } = validate(claimSchema, { device: asHashList(p.device) ?? [] });
    const wanted = device.flatMap((d) =>
      d.account_id !== undefined && d.device_id !== undefined
        ? [{ accountId: d.account_id, deviceId: d.device_id }]
        : [],
    );
    const results = await claimKeys(c.env.ctx, callerOf(c), wanted);
    return c.json(results.map(serializeClaimResult));
  });

  app.get("/api/v1/crypto/keys/count", guard, async (c) => {
    return c.json({ one_time_keys: await oneTimeKeyCount(c.env.ctx, callerOf(c)) });
  });

  app.post("/api/v1/crypto/deliveries", guard, async (c) => {
    const p = await readParams(c);
    const given = asHashList(p.device);
    if (!given || given.length === 0) throw new ApiError(400, "param is missing or the value is empty: device");
    const { device } = validate(deliverySchema, { device: given });
    await deliverMessages(
      c.env.ctx,
      callerOf(c),
      device.map((d) => ({ accountId: d.account_id, deviceId: d.device_id, type: d.type, body: d.body, hmac: d.hmac })),
    );
    return c.json({});
  });

  app.get("/api/v1/crypto/encrypted_messages", guard, async (c) => {
    const page = pageParams(c, MESSAGES_PAGE);
    const messages = await listMessages(c.env.ctx, callerOf(c), page);
    setLinkHeader(c, page, messages.length, messages[0]?.id, messages.at(-1)?.id);
    return c.json(messages.map(serializeEncryptedMessage));
  });

  app.post("/api/v1/crypto/encrypted_messages/clear", guard, async (c) => {
    const p = await readParams(c);
    const upTo = typeof p.up_to_id === "number" ? String(p.up_to_id) : p.up_to_id;
    await clearMessages(c.env.ctx, callerOf(c), typeof upTo === "string" ? upTo : undefined);
    return c.json({});
  });

  cryptoFederationRoutes(app);
}
