import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import type { AppContext } from "../../src/context.ts";
import { cliApplication, issueToken } from "../../src/services/oauth/tokens.ts";

/** Raw public key bytes of an Ed25519 or X25519 key, as Olm writes them: unpadded base64. */
const rawPublic = (key: KeyObject): string =>
  Buffer.from(key.export({ format: "jwk" }).x as string, "base64url")
    .toString("base64")
    .replace(/=+$/, "");

/** A device's keys as an end-to-end encryption client makes them (Ed25519 fingerprint, Curve25519 identity). */
export function deviceKeys(deviceId: string, name = `Device ${deviceId}`) {
  const fingerprint = generateKeyPairSync("ed25519");
  const identity = generateKeyPairSync("x25519");
  return {
    device: {
      device_id: deviceId,
      name,
      fingerprint_key: rawPublic(fingerprint.publicKey),
      identity_key: rawPublic(identity.publicKey),
    },
    /** `n` one-time keys (Curve25519), each signed by the fingerprint key. */
    oneTimeKeys(n: number, prefix = "k") {
      return Array.from({ length: n }, (_, i) => {
        const key = rawPublic(generateKeyPairSync("x25519").publicKey);
        const signature = sign(null, Buffer.from(key), fingerprint.privateKey).toString("base64").replace(/=+$/, "");
        return { key_id: `${prefix}${i}`, key, signature };
      });
    },
  };
}

/** Another access token of a user (each token is a device), with `scopes`. */
export async function tokenFor(ctx: AppContext, userId: string, scopes = "read write crypto"): Promise<string> {
  const app = await cliApplication(ctx);
  return (await issueToken(ctx, { applicationId: app.id, userId, scopes: scopes.split(" ") })).accessToken;
}
