import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AppContext } from "../../context.ts";
import type { WebauthnCredentialRow } from "../../db/repositories/security.ts";
import type { User } from "../../db/repositories/users.ts";
import { hmac, sha256 } from "../../lib/crypto.ts";

// @simplewebauthn/server (and its CBOR and ASN.1 parsers) costs about 27 MiB and a third of a
// second to load: it is loaded the first time a security key is used, not at start-up.
let library: Promise<typeof import("@simplewebauthn/server")> | undefined;
const webauthn = () => (library ??= import("@simplewebauthn/server"));

/**
 * Security keys and passkeys (WebAuthn) as a second factor, with @simplewebauthn/server. The
 * relying party is this server: its id is the web domain's host name, the expected origin
 * `config.baseUrl`. A challenge lives five minutes in the key-value store under the browser
 * session's key and is spent by its first use.
 */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const NICKNAME_MAX = 60;

export function relyingParty(ctx: AppContext): { id: string; origin: string; name: string } {
  const url = new URL(ctx.config.baseUrl);
  return { id: url.hostname, origin: url.origin, name: ctx.config.siteTitle };
}

/** The user handle given to authenticators: stable per user, revealing nothing (keyed by SECRET_KEY). */
function userHandle(ctx: AppContext, userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(hmac(ctx.config.secretKey, `webauthn user:${userId}`), "base64url"));
}

const challengeKey = (purpose: "register" | "sign-in", sessionKey: string) =>
  `webauthn:${purpose}:${sha256(sessionKey)}`;

async function keepChallenge(ctx: AppContext, key: string, challenge: string): Promise<void> {
  await ctx.repos.kv.set(key, challenge, new Date(Date.now() + CHALLENGE_TTL_MS).toISOString());
}

/** The stored challenge, removed so that it serves once. */
async function spendChallenge(ctx: AppContext, key: string): Promise<string | undefined> {
  const now = new Date().toISOString();
  const stored = await ctx.repos.kv.get(key, now);
  if (stored === undefined) return undefined;
  const mine = await ctx.repos.kv.cas(key, (v) => v === stored, undefined, null, now);
  return mine ? stored : undefined;
}

export function credentialsOf(ctx: AppContext, userId: string): Promise<WebauthnCredentialRow[]> {
  return ctx.repos.security.credentialsOf(userId);
}

/** Options for `navigator.credentials.create()`; other keys of the user are excluded. */
export async function registrationOptions(
  ctx: AppContext,
  user: User,
  username: string,
  sessionKey: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(ctx);
  const existing = await ctx.repos.security.credentialsOf(user.id);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: username,
    userID: userHandle(ctx, user.id),
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.externalId, transports: c.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await keepChallenge(ctx, challengeKey("register", sessionKey), options.challenge);
  return options;
}

/** Verifies a new credential and keeps it under `nickname`; answers false when it does not verify. */
export async function finishRegistration(
  ctx: AppContext,
  userId: string,
  sessionKey: string,
  response: RegistrationResponseJSON,
  nickname: string,
): Promise<boolean> {
  const challenge = await spendChallenge(ctx, challengeKey("register", sessionKey));
  if (!challenge) return false;
  const rp = relyingParty(ctx);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch {
    return false;
  }
  if (!verified.verified) return false;
  const { credential } = verified.registrationInfo;
  if (await ctx.repos.security.credentialByExternalId(credential.id)) return false;
  await ctx.repos.security.insertCredential({
    id: ctx.ids.next(),
    userId,
    externalId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString("base64url"),
    nickname,
    signCount: credential.counter,
    transports: credential.transports ?? response.response.transports,
    at: new Date().toISOString(),
  });
  return true;
}

/** Options for `navigator.credentials.get()` naming the user's keys (empty when they have none). */
export async function authenticationOptions(
  ctx: AppContext,
  userId: string,
  sessionKey: string,
): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
  const creds = await ctx.repos.security.credentialsOf(userId);
  if (creds.length === 0) return undefined;
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    allowCredentials: creds.map((c) => ({ id: c.externalId, transports: c.transports })),
    userVerification: "discouraged",
  });
  await keepChallenge(ctx, challengeKey("sign-in", sessionKey), options.challenge);
  return options;
}

/** Verifies an assertion by one of the user's keys for the session's challenge. */
export async function finishAuthentication(
  ctx: AppContext,
  userId: string,
  sessionKey: string,
  response: AuthenticationResponseJSON,
): Promise<boolean> {
  if (typeof response?.id !== "string") return false;
  const cred = await ctx.repos.security.credentialByExternalId(response.id);
  if (!cred || cred.userId !== userId) return false;
  const challenge = await spendChallenge(ctx, challengeKey("sign-in", sessionKey));
  if (!challenge) return false;
  const rp = relyingParty(ctx);
  try {
    const result = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: cred.externalId,
        publicKey: new Uint8Array(Buffer.from(cred.publicKey, "base64url")),
        counter: cred.signCount,
        transports: cred.transports,
      },
      requireUserVerification: false,
    });
    if (!result.verified) return false;
    await ctx.repos.security.credentialUsed(cred.id, result.authenticationInfo.newCounter, new Date().toISOString());
    return true;
  } catch {
    return false;
  }
}

export function deleteCredential(ctx: AppContext, userId: string, id: string): Promise<boolean> {
  return ctx.repos.security.deleteCredential(userId, id);
}
