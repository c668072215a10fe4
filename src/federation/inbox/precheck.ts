import type { Federation } from "@fedify/fedify";
import type { AppContext } from "../../context.ts";
import { signedRequestFrom } from "../../services/federation/availability.ts";
import { checkSignature, kvOf, mayRefetch, parseSignature } from "./fast-signature.ts";
import { shapeProblem } from "./shape.ts";

const INBOX_PATH = /^\/(?:users\/[^/]+\/)?inbox\/?$/;

/** The hosts (with port) of the signing keys named in a request's Signature or Signature-Input header. */
function keyHosts(request: Request): string[] {
  const out: string[] = [];
  const headers = [request.headers.get("signature"), request.headers.get("signature-input")];
  for (const h of headers) {
    if (!h) continue;
    for (const m of h.matchAll(/key[iI]d="([^"]+)"/g)) {
      try {
        out.push(new URL(m[1]).host.toLowerCase());
      } catch {
        // Not a URL: Fedify refuses the signature itself.
      }
    }
  }
  return out;
}

function actorId(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const actor = (body as { actor?: unknown }).actor;
  const id = typeof actor === "string" ? actor : (actor as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : undefined;
}

function actorHost(body: unknown): string | undefined {
  const id = actorId(body);
  if (id === undefined) return undefined;
  try {
    return new URL(id).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** An inbox POST (personal or shared; `path` without the query), which `inboxPrecheck` looks at before Fedify. */
export function isInboxPost(method: string, path: string): boolean {
  return method === "POST" && INBOX_PATH.test(path);
}

/** The path of an absolute request URL, without a URL parse (the server hands URLs on normalised). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return url.slice(start, query < 0 ? url.length : query);
}

/** The body bound app.ts puts on inboxes (a larger body is answered 413 before any of this). */
const INBOX_BODY_LIMIT = 1024 * 1024;

/** A POST to an inbox (personal or shared), from the request alone: before routing. */
export function isInboxPostRequest(request: Request): boolean {
  return request.method === "POST" && INBOX_PATH.test(pathOf(request.url));
}

/**
 * The 401 of step 1 of `inboxPrecheck` for an inbox POST without any Signature or
 * Signature-Input header, answered before routing and middleware (app.ts's `handlerFor`): the
 * cheapest refusal, for the commonest abuse. Undefined for anything else, which goes the usual
 * way: a body over the inbox's bound or of unknown length (the body limit answers or counts it
 * first), a signature header of any kind.
 */
export function unsignedInboxRefusal(request: Request): Response | undefined {
  if (!isInboxPostRequest(request)) return undefined;
  return unsignedRefusal(request);
}

/** `unsignedInboxRefusal` for a request known to be an inbox POST. */
export function unsignedRefusal(request: Request): Response | undefined {
  const headers = request.headers;
  if (headers.has("signature") || headers.has("signature-input")) return undefined;
  const length = headers.get("content-length");
  if (length === null || !(Number(length) <= INBOX_BODY_LIMIT)) return undefined;
  return refuse(401, "Request not signed", request);
}

type HashtagActivityModule = typeof import("./hashtag-activity.ts");
let hashtagActivityModule: Promise<HashtagActivityModule> | undefined;
type SignatureGateModule = typeof import("./signature-gate.ts");
let signatureGateModule: Promise<SignatureGateModule> | undefined;
type EncryptedMessageModule = typeof import("../crypto/inbox.ts");
let encryptedMessageModule: Promise<EncryptedMessageModule> | undefined;

/** A `Create` of Mastodon's `EncryptedMessage`, told without loading Fedify. */
function isEncryptedMessage(json: unknown): boolean {
  const object = (json as { object?: unknown }).object;
  return object !== null && typeof object === "object" && (object as { type?: unknown }).type === "EncryptedMessage";
}

/** Past this many unread bytes, closing the connection is cheaper than reading the body to its end. */
const DRAIN_LIMIT = 64 * 1024;

function refuse(status: number, error: string, unread?: Request): Response {
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  if (unread && Number(unread.headers.get("content-length") ?? Number.POSITIVE_INFINITY) > DRAIN_LIMIT) {
    headers.Connection = "close";
  }
  return new Response(JSON.stringify({ error }), { status, headers });
}

/** The 401s for a signature that is missing, malformed or does not verify (`isSignatureFailure`). */
const signatureFailures = new WeakSet<Response>();

function signatureRefusal(error: string, unread?: Request): Response {
  const response = refuse(401, error, unread);
  signatureFailures.add(response);
  return response;
}

/**
 * Whether `inboxPrecheck` refused the request for its signature (the failure throttle counts
 * these: failure-throttle.ts), not for its sender's domain or its content.
 */
export function isSignatureFailure(response: Response): boolean {
  return signatureFailures.has(response);
}

async function isBlocked(ctx: AppContext, hosts: Iterable<string>): Promise<boolean> {
  for (const h of hosts) {
    if (!(await ctx.repos.instanceDomainBlocks.isDeliveryAllowed(h))) return true;
  }
  return false;
}

/**
 * Whether the body carries a Linked Data signature or an object integrity proof, by which a
 * forwarded activity vouches for its actor (Fedify verifies either).
 */
function hasEmbeddedSignature(json: unknown): boolean {
  const { signature, proof } = json as { signature?: unknown; proof?: unknown };
  return (signature !== null && typeof signature === "object") || (proof !== null && typeof proof === "object");
}

/** What steps 1 to 3 of `inboxPrecheck` found in a request whose signature verified. */
interface SignedInbox {
  keys: string[];
  bytes: Uint8Array;
  fed: Federation<AppContext>;
  /** The request to hand on, with the body read here (a clone would copy the stream into two). */
  forward: Request;
  signer: { ownerId: URL | null };
}

/** Steps 1 to 3 of `inboxPrecheck`: the signature (and the signing key's domain), the body read. */
async function signatureStage(
  ctx: AppContext,
  request: Request,
  federation: () => Promise<Federation<AppContext>>,
): Promise<Response | SignedInbox> {
  const keys = keyHosts(request);
  if (keys.length === 0) return signatureRefusal("Request not signed", request);
  if (await isBlocked(ctx, keys)) return refuse(403, "Forbidden", request);
  // Fedify's checks that need neither the body nor the key (the Date's window...), before reading.
  const parsed = parseSignature(request);
  if (parsed === "refused") return signatureRefusal("Signature verification failed", request);
  const bytes = new Uint8Array(await request.arrayBuffer());
  const fed = await federation();
  let signer: { ownerId: URL | null } | null = null;
  let refetchGranted = false;
  if (typeof parsed === "object") {
    const kv = kvOf(fed);
    const fast = await checkSignature(kv, request, parsed, bytes);
    if (fast.verdict === "refused") return signatureRefusal("Signature verification failed");
    if (fast.verdict === "failed") {
      // Refused at once, unless this minute's refetch of the key is still unspent (a rotated key).
      if (!mayRefetch(kv, fast.keyId)) return signatureRefusal("Signature verification failed");
      refetchGranted = true;
    }
    if (fast.verdict === "valid") signer = fast;
  }
  const forward = new Request(request.url, { method: "POST", headers: request.headers, body: bytes });
  if (!signer) {
    signatureGateModule ??= import("./signature-gate.ts");
    signer = await (await signatureGateModule).verifiedSigner(fed, ctx, forward, { refetchGranted });
    if (!signer) return signatureRefusal("Signature verification failed");
  }
  return { keys, bytes, fed, forward, signer };
}

/** Steps 1 to 3 run before routing (`precheckBeforeRouting`), for `inboxPrecheck` to go on from. */
const checkedEarly = new WeakMap<Request, SignedInbox | { error: unknown }>();

/**
 * Whether `precheckBeforeRouting` may take this inbox POST (`isInboxPostRequest`): a signed one
 * whose declared length is within the inbox's bound. Anything else goes through the middleware
 * (the body limit answers or counts it) to `inboxPrecheck`.
 */
export function mayPrecheckBeforeRouting(request: Request): boolean {
  const length = request.headers.get("content-length");
  return length !== null && Number(length) <= INBOX_BODY_LIMIT;
}

/**
 * Steps 1 to 3 of `inboxPrecheck` (the signature, verified, and the signing key's domain) for an
 * inbox POST before routing and middleware (app.ts's `handlerFor`, when `mayPrecheckBeforeRouting`
 * and no IP block applies): their refusal, which is answered at once (a flood of forged
 * signatures spread over many addresses then costs no routing nor middleware), or undefined when
 * the request goes on its usual way, where `inboxPrecheck` takes up from what was found here (the
 * body read, the signer) instead of doing it again. An error is kept and thrown there, inside
 * the application's error handling.
 */
export async function precheckBeforeRouting(
  ctx: AppContext,
  request: Request,
  federation: () => Promise<Federation<AppContext>>,
): Promise<Response | undefined> {
  try {
    const stage = await signatureStage(ctx, request, federation);
    if (stage instanceof Response) return stage;
    checkedEarly.set(request, stage);
  } catch (error) {
    checkedEarly.set(request, { error });
  }
  return undefined;
}

/** Requests `inboxPrecheck` hands on whose signature it verified, signed by the key of this actor. */
const precheckedOwners = new WeakMap<Request, string>();

/**
 * The actor whose key signed `request`, when `inboxPrecheck` handed it on with its signature
 * verified and that actor is the activity's `actor`: Fedify need not verify it again
 * (verified-skip.ts). Undefined for anything else (a signer of another actor, a forwarded
 * activity, a request the precheck did not verify), which Fedify verifies as always.
 */
export function precheckedOwnerOf(request: Request): string | undefined {
  return precheckedOwners.get(request);
}

/**
 * Runs before Fedify on inbox POSTs (`isInboxPost`), cheapest refusal first, so that what is not
 * signed costs no JSON-LD work (Fedify parses the whole activity as JSON-LD before it looks at the
 * HTTP signature):
 * 1. no Signature or Signature-Input header naming a key URL: 401, the body left unread (as on
 *    Mastodon, an inbox takes only signed requests), and the connection closed when the body is
 *    large, rather than read to its end;
 * 2. a signing key of a suspended domain (or, in limited-federation mode, of a domain not
 *    allowed): 403, so that no key is fetched from it;
 * 3. a draft-cavage signature's Date, header list and digest checked as Fedify checks them, and
 *    its signature checked with node:crypto when the key is held (fast-signature.ts): 401 when
 *    they fail (the key's refetch, once a minute, left to the gate); otherwise (RFC 9421, a key
 *    not held, an algorithm it does not know, a possibly rotated key) the signature verified by
 *    Fedify's own code (signature-gate.ts): 401 when it does not verify;
 * 4. the body as JSON: 400 when it is not; an actor of a blocked domain: 403; a shape past the
 *    bounds of shape.ts (nesting, tags, attachments, values): 400;
 * 5. a key owned by another actor than the activity's, without a Linked Data signature or
 *    integrity proof that could vouch for a forwarded activity: 401.
 * The 401s of steps 1 and 3 are counted against the client IP (`isSignatureFailure`); past the
 * failure throttle's limit, its inbox POSTs never get here (failure-throttle.ts).
 * A featured-tag Add or Remove, which Fedify cannot parse, is then handled here
 * (hashtag-activity.ts), and so is a `Create` of an end-to-end `EncryptedMessage`
 * (crypto/inbox.ts). Anything else answers the request to hand on to Fedify (which verifies
 * again: its inbox cannot be told that the gate did; a signature the pre-filter took is verified
 * by Fedify only there), carrying the body read here.
 * Steps 1 to 3 usually ran before routing already (`precheckBeforeRouting`): what they found is
 * taken up here.
 */
export async function inboxPrecheck(
  ctx: AppContext,
  request: Request,
  federation: () => Promise<Federation<AppContext>>,
): Promise<Response | Request> {
  const early = checkedEarly.get(request);
  if (early !== undefined) checkedEarly.delete(request);
  if (early !== undefined && "error" in early) throw early.error;
  const stage = early ?? (await signatureStage(ctx, request, federation));
  if (stage instanceof Response) return stage;
  const { keys, bytes, fed, forward, signer } = stage;
  // A server marked unavailable for deliveries that sends us a signed activity is back.
  await signedRequestFrom(ctx, signer.ownerId?.host ?? keys[0]);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return refuse(400, "Invalid JSON");
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return refuse(400, "Invalid activity");
  const host = actorHost(json);
  if (host && (await isBlocked(ctx, [host]))) return refuse(403, "Forbidden");
  const problem = shapeProblem(json);
  if (problem) return refuse(400, problem);
  const actor = URL.parse(actorId(json) ?? "")?.href;
  if (signer.ownerId && actor !== undefined && signer.ownerId.href !== actor && !hasEmbeddedSignature(json)) {
    return refuse(401, "The signer and the actor do not match");
  }
  const type = (json as { type?: unknown }).type;
  if (type === "Create" && isEncryptedMessage(json)) {
    // Mastodon's end-to-end encrypted messages, which Fedify cannot parse either (crypto/inbox.ts).
    encryptedMessageModule ??= import("../crypto/inbox.ts");
    return (await encryptedMessageModule).encryptedMessageActivity(ctx, fed, forward, json, pathOf(request.url));
  }
  if (type !== "Add" && type !== "Remove") {
    // Verified here, signed by the actor's own key: Fedify need not verify it again (verified-skip.ts).
    if (signer.ownerId && actor !== undefined && signer.ownerId.href === actor) precheckedOwners.set(forward, actor);
    return forward;
  }
  // Loaded when first needed, not imported: it brings Fedify's vocabulary, which a server loads
  // only once it federates (this module is on every request's path through the bridge).
  hashtagActivityModule ??= import("./hashtag-activity.ts");
  const { featuredTagActivity } = await hashtagActivityModule;
  return (await featuredTagActivity(ctx, fed, forward, json)) ?? forward;
}
