import { Secret, TOTP } from "otpauth";
import type { AppContext } from "../../context.ts";
import type { User } from "../../db/repositories/users.ts";
import { regenerateRecoveryCodes, useRecoveryCode } from "./recovery-codes.ts";
import { openSecret, sealSecret } from "./secret-box.ts";

/** RFC 6238 as authenticator apps expect it: SHA-1, six digits, 30 seconds. */
const PERIOD = 30;
/** Codes of the previous and next time step are accepted too (clock drift). */
const WINDOW = 1;

function totpOf(ctx: AppContext, label: string, secret: string): TOTP {
  return new TOTP({
    issuer: ctx.config.localDomain.replace(/:\d+$/, ""),
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** The time step a valid code belongs to, or undefined. */
function matchingTimestep(totp: TOTP, code: string): number | undefined {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  const now = Date.now();
  const delta = totp.validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD) + delta;
}

/** Whether the user signs in with a second factor (an authenticator app is set up). */
export async function secondFactorEnabled(ctx: AppContext, userId: string): Promise<boolean> {
  const row = await ctx.repos.security.secondFactorOf(userId);
  return row?.otpSecret != null;
}

export interface OtpSetup {
  /** Base32, for typing into the app by hand. */
  secret: string;
  uri: string;
  /** The `otpauth://` URI as an SVG QR code, in a `data:` URL. */
  qrDataUrl: string;
}

/**
 * The secret being set up for the user: the pending one if there is one (a reload shows the same
 * QR code), else a new one, kept sealed until a code confirms it.
 */
export async function beginOtpSetup(ctx: AppContext, user: User, label: string): Promise<OtpSetup> {
  const row = await ctx.repos.security.secondFactorOf(user.id);
  let secret = row?.otpPendingSecret ? openSecret(ctx.config.secretKey, row.otpPendingSecret) : undefined;
  if (!secret) {
    secret = new Secret({ size: 20 }).base32;
    await ctx.repos.security.upsertSecondFactor(
      user.id,
      { otp_pending_secret: sealSecret(ctx.config.secretKey, secret) },
      new Date().toISOString(),
    );
  }
  const uri = totpOf(ctx, label, secret).toString();
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/**
 * Turns the pending secret on when `code` matches it; answers the new recovery codes (shown
 * once), or undefined for a wrong code.
 */
export async function confirmOtpSetup(ctx: AppContext, user: User, code: string): Promise<string[] | undefined> {
  const row = await ctx.repos.security.secondFactorOf(user.id);
  const secret = row?.otpPendingSecret ? openSecret(ctx.config.secretKey, row.otpPendingSecret) : undefined;
  if (!secret) return undefined;
  const step = matchingTimestep(totpOf(ctx, "", secret), code);
  if (step === undefined) return undefined;
  const now = new Date().toISOString();
  await ctx.repos.security.upsertSecondFactor(
    user.id,
    { otp_secret: row!.otpPendingSecret, otp_pending_secret: null, otp_enabled_at: now, consumed_timestep: step },
    now,
  );
  return regenerateRecoveryCodes(ctx, user.id);
}

export type CodeCheck = "ok" | "invalid" | "reused";

/** Checks a code from the user's app: each time step's code works once. */
export async function verifyOtpCode(ctx: AppContext, userId: string, code: string): Promise<CodeCheck> {
  const row = await ctx.repos.security.secondFactorOf(userId);
  const secret = row?.otpSecret ? openSecret(ctx.config.secretKey, row.otpSecret) : undefined;
  if (!secret) return "invalid";
  const step = matchingTimestep(totpOf(ctx, "", secret), code);
  if (step === undefined) return "invalid";
  const fresh = await ctx.repos.security.consumeTimestep(userId, step, new Date().toISOString());
  return fresh ? "ok" : "reused";
}

/** The sign-in form's code: six digits are an app's code, anything else is tried as a recovery code. */
export async function verifySecondFactorCode(ctx: AppContext, userId: string, input: string): Promise<CodeCheck> {
  const code = input.trim().slice(0, 64);
  if (/^\d{3}\s?\d{3}$/.test(code)) return verifyOtpCode(ctx, userId, code);
  return (await useRecoveryCode(ctx, userId, code)) ? "ok" : "invalid";
}

/**
 * Turns two-factor sign-in off: the app's secret, the recovery codes and the security keys go
 * (security keys are a second factor beside the app, as in Mastodon).
 */
export async function disableSecondFactor(ctx: AppContext, userId: string): Promise<void> {
  const now = new Date().toISOString();
  await ctx.repos.security.upsertSecondFactor(
    userId,
    { otp_secret: null, otp_pending_secret: null, otp_enabled_at: null, consumed_timestep: null },
    now,
  );
  await ctx.repos.security.deleteRecoveryCodes(userId);
  for (const cred of await ctx.repos.security.credentialsOf(userId)) {
    await ctx.repos.security.deleteCredential(userId, cred.id);
  }
}
