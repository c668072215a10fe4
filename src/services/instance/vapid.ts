import { generateKeyPairSync } from "node:crypto";
import type { AppContext } from "../../context.ts";

/** Site setting holding the generated key pair (when the operator gave none in the environment). */
export const VAPID_SETTING = "vapid_keys";

/**
 * A VAPID key pair in the format the `web-push` package reads: the public key is the
 * uncompressed P-256 point (65 bytes) and the private key the 32-byte scalar, both base64url
 * without padding.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function generateVapidKeys(): VapidKeys {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const pub = publicKey.export({ format: "jwk" });
  const priv = privateKey.export({ format: "jwk" });
  if (!pub.x || !pub.y || !priv.d) throw new Error("P-256 key export lacks coordinates");
  const point = Buffer.concat([Buffer.from([0x04]), Buffer.from(pub.x, "base64url"), Buffer.from(pub.y, "base64url")]);
  return { publicKey: point.toString("base64url"), privateKey: priv.d };
}

function isVapidKeys(v: unknown): v is VapidKeys {
  const k = v as Partial<VapidKeys> | undefined;
  return typeof k?.publicKey === "string" && typeof k.privateKey === "string";
}

/**
 * The server's VAPID keys: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, else the pair stored in
 * site settings, generated on first use. The stored pair is read back after writing so that two
 * processes racing on the first call settle on the same keys.
 */
export async function getVapidKeys(ctx: AppContext): Promise<VapidKeys> {
  if (ctx.config.vapid) return ctx.config.vapid;
  const stored = await ctx.repos.settings.get<unknown>(VAPID_SETTING);
  if (isVapidKeys(stored)) return stored;
  await ctx.repos.settings.set(VAPID_SETTING, generateVapidKeys());
  const saved = await ctx.repos.settings.get<unknown>(VAPID_SETTING);
  if (!isVapidKeys(saved)) throw new Error("the VAPID keys could not be stored");
  return saved;
}
