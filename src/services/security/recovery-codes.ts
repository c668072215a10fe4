import { randomBytes } from "node:crypto";
import type { AppContext } from "../../context.ts";
import { hmac } from "../../lib/crypto.ts";

/** Ten codes, each 10 hexadecimal characters, as Mastodon's backup codes. */
export const RECOVERY_CODE_COUNT = 10;

/** A code as typed: case, spaces and dashes do not matter. */
export function normaliseRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, "");
}

/** Codes are kept as keyed hashes (SECRET_KEY): a copy of the database does not reveal them. */
function codeHash(ctx: AppContext, userId: string, code: string): string {
  return hmac(ctx.config.secretKey, `recovery code:${userId}:${code}`);
}

/** New recovery codes for the user, replacing any earlier ones; answers the codes (shown once). */
export async function regenerateRecoveryCodes(ctx: AppContext, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => randomBytes(5).toString("hex"));
  await ctx.repos.security.replaceRecoveryCodes(
    userId,
    codes.map((code) => ({ id: ctx.ids.next(), codeHash: codeHash(ctx, userId, code) })),
    new Date().toISOString(),
  );
  return codes;
}

/** Spends one recovery code: true once per code. */
export async function useRecoveryCode(ctx: AppContext, userId: string, input: string): Promise<boolean> {
  const code = normaliseRecoveryCode(input);
  if (!/^[0-9a-f]{10}$/.test(code)) return false;
  return ctx.repos.security.useRecoveryCode(userId, codeHash(ctx, userId, code));
}

export function recoveryCodesLeft(ctx: AppContext, userId: string): Promise<number> {
  return ctx.repos.security.countRecoveryCodes(userId);
}
