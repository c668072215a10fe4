import { createECDH } from "node:crypto";
import { lookup } from "node:dns/promises";
import type { AppContext } from "../../context.ts";
import type { PushPolicy, PushSubscription } from "../../db/repositories/push-subscriptions.ts";
import { ApiError } from "../../lib/errors.ts";
import { createAddressPolicy, parseAddress } from "../../lib/net/address-policy.ts";
import { sealToken } from "./token-box.ts";

export type { PushPolicy };

export const PUSH_POLICIES: readonly PushPolicy[] = ["all", "followed", "follower", "none"];

export interface SubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  standard: boolean;
  /** The notification types to push. */
  alerts: string[];
  policy: PushPolicy;
}

/** Who subscribes: the access token (its row id and its text, for the payload) and its account. */
export interface Subscriber {
  tokenId: string;
  token: string;
  accountId: string;
}

const invalid = (message: string): ApiError => new ApiError(422, `Validation failed: ${message}`);

/**
 * A key as browsers give it (base64url without padding); standard base64 and padding are taken
 * too, as Ruby's decoder does. The bytes, or undefined when it is not base64.
 */
function decodeKey(text: string): Buffer | undefined {
  const s = text.trim().replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_");
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return undefined;
  return Buffer.from(s, "base64url");
}

/** The subscription's public key: an uncompressed P-256 point (65 bytes) that is on the curve. */
function checkP256dh(text: string): string {
  const bytes = decodeKey(text);
  if (bytes?.length !== 65 || bytes[0] !== 0x04) throw invalid("Key p256dh is not a valid P-256 public key");
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    ecdh.computeSecret(bytes);
  } catch {
    throw invalid("Key p256dh is not a valid P-256 public key");
  }
  return bytes.toString("base64url");
}

function checkAuth(text: string): string {
  const bytes = decodeKey(text);
  if (bytes?.length !== 16) throw invalid("Key auth is not a valid authentication secret");
  return bytes.toString("base64url");
}

/**
 * A push endpoint is a URL the user chose, so the server's private-address guard applies: https
 * to any address the guarded client may reach (it checks again at delivery), plain http only to
 * an address the operator listed in ALLOWED_PRIVATE_ADDRESSES (a test receiver, a LAN service).
 * The endpoint is kept as sent, not in the parser's normal form: clients compare the one they
 * get back with their own (Mastodon stores it verbatim), and delivery parses it the same way.
 */
async function checkEndpoint(ctx: AppContext, endpoint: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalid("Endpoint is not a valid URL");
  }
  if (endpoint.length > 2048) throw invalid("Endpoint is too long (maximum is 2048 characters)");
  const policy = createAddressPolicy(ctx.config.allowedPrivateAddresses);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (url.protocol === "https:") {
    if (parseAddress(host) && !policy.allows(host)) throw invalid("Endpoint is not a public address");
    return endpoint;
  }
  if (url.protocol !== "http:") throw invalid("Endpoint is not a valid URL");
  let addresses: string[];
  if (parseAddress(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0 || !addresses.every((a) => policy.isExplicitlyAllowed(a))) {
    throw invalid("Endpoint must use https");
  }
  return endpoint;
}

/** `POST /api/v1/push/subscription`: the token's subscription is replaced by this one. */
export async function subscribe(ctx: AppContext, who: Subscriber, input: SubscriptionInput): Promise<PushSubscription> {
  const endpoint = await checkEndpoint(ctx, input.endpoint);
  const keyP256dh = checkP256dh(input.p256dh);
  const keyAuth = checkAuth(input.auth);
  await ctx.repos.pushSubscriptions.replace({
    id: ctx.ids.next(),
    accessTokenId: who.tokenId,
    accountId: who.accountId,
    endpoint,
    keyP256dh,
    keyAuth,
    standard: input.standard,
    alerts: input.alerts,
    policy: input.policy,
    tokenBox: sealToken(ctx.config.secretKey, who.token),
    at: new Date().toISOString(),
  });
  const saved = await ctx.repos.pushSubscriptions.forToken(who.tokenId);
  if (!saved) throw new ApiError(404, "Record not found");
  return saved;
}

/** `PUT`: new alerts and policy for the token's subscription; 404 when it has none. */
export async function updateSubscription(
  ctx: AppContext,
  tokenId: string,
  alerts: string[],
  policy: PushPolicy,
): Promise<PushSubscription> {
  const updated = await ctx.repos.pushSubscriptions.updateData(tokenId, alerts, policy, new Date().toISOString());
  const saved = updated ? await ctx.repos.pushSubscriptions.forToken(tokenId) : undefined;
  if (!saved) throw new ApiError(404, "Record not found");
  return saved;
}

/** `GET`: the token's subscription, if it has one. */
export function subscriptionForToken(ctx: AppContext, tokenId: string): Promise<PushSubscription | undefined> {
  return ctx.repos.pushSubscriptions.forToken(tokenId);
}

/** `DELETE`: ends the token's subscription (nothing to do when it has none). */
export async function unsubscribe(ctx: AppContext, tokenId: string): Promise<void> {
  await ctx.repos.pushSubscriptions.deleteForToken(tokenId);
}
