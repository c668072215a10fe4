import { lookup } from "node:dns/promises";
import { type KvStore, kvCache, signRequest } from "@fedify/fedify";
import {
  type AuthenticatedDocumentLoaderFactory,
  type DocumentLoader,
  type DocumentLoaderFactory,
  getRemoteDocument,
  preloadedContexts,
  type RemoteDocument,
  UrlError,
} from "@fedify/vocab-runtime";
import type { AppContext } from "../context.ts";
import { createAddressPolicy, parseAddress } from "../lib/net/address-policy.ts";
import { INSTANCE_ACTOR_PATH, instanceActorKeyPairs } from "./keys.ts";

/** Largest ActivityPub document fetched (actors with many emojis stay far below it). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** The whole fetch, redirects included. */
export const DOCUMENT_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

interface Signer {
  keyId: URL;
  privateKey: CryptoKey;
}

export interface Loaders {
  documentLoaderFactory: DocumentLoaderFactory;
  contextLoaderFactory: DocumentLoaderFactory;
  authenticatedDocumentLoaderFactory: AuthenticatedDocumentLoaderFactory;
}

/**
 * Fedify's preloaded JSON-LD contexts (ActivityStreams, security, Mastodon's extensions...) as
 * documents tagged `static`: jsonld then keeps each one resolved and processed in its shared
 * cache, instead of loading, resolving and processing it again at every expansion (several per
 * incoming activity; 0.1 ms of CPU each time for the ActivityStreams context alone). They are
 * constants of Fedify's code, so they never change. Any other URL goes to `loader`.
 */
export function withStaticContexts(loader: DocumentLoader): DocumentLoader {
  return (url, options) => {
    if (Object.hasOwn(preloadedContexts, url)) {
      const document: RemoteDocument & { tag: string } = {
        contextUrl: null,
        document: preloadedContexts[url],
        documentUrl: url,
        tag: "static",
      };
      return Promise.resolve(document);
    }
    return loader(url, options);
  };
}

/**
 * Fedify's document, context and signed-fetch loaders over Gannet's guarded HTTP client
 * (`ctx.guardedFetch`), in place of Fedify's all-or-nothing `allowPrivateAddress`: loopback and
 * private addresses only when ALLOWED_PRIVATE_ADDRESSES lists them (checked on every address a
 * name resolves to, at connect time), responses bounded in size and time, every redirect checked
 * again, and https required except towards the addresses the operator allowed (plain http is for
 * tests and LANs, never for the public internet). Documents are fetched signed by the instance
 * actor, user-signed fetches with the user's key. Fedify's preloaded JSON-LD contexts are served
 * without a request; fetched documents are cached in the KV store as Fedify's own loader does.
 */
export function createLoaders(ctx: AppContext, kv: KvStore): Loaders {
  const policy = createAddressPolicy(ctx.config.allowedPrivateAddresses);

  /** Plain http only to hosts that are, or resolve only to, addresses the operator allowed. */
  async function checkScheme(url: URL): Promise<void> {
    if (url.protocol === "https:") return;
    if (url.protocol !== "http:") throw new UrlError(`Unsupported protocol: ${url.href}`);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    let addresses: string[];
    if (parseAddress(host)) addresses = [host];
    else if (ctx.config.allowedPrivateAddresses.length === 0) addresses = [];
    else addresses = (await lookup(host, { all: true })).map((a) => a.address);
    if (addresses.length === 0 || !addresses.every((a) => policy.isExplicitlyAllowed(a))) {
      throw new UrlError(`Plain http is refused outside ALLOWED_PRIVATE_ADDRESSES: ${url.href}`);
    }
  }

  async function load(
    url: string,
    signal: AbortSignal | undefined,
    getSigner?: () => Promise<Signer>,
  ): Promise<RemoteDocument> {
    if (Object.hasOwn(preloadedContexts, url)) {
      return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    }
    const signer = await getSigner?.();
    let current = new URL(url);
    for (let hop = 0; ; hop++) {
      await checkScheme(current);
      let request = new Request(current, { headers: { accept: ACCEPT } });
      // Mastodon's draft signature: what every peer checks (each hop signed for its own URL).
      if (signer) {
        request = await signRequest(request, signer.privateKey, signer.keyId, {
          spec: "draft-cavage-http-signatures-12",
        });
      }
      const response = await ctx.guardedFetch(current, {
        headers: request.headers,
        redirect: "manual",
        maxBytes: MAX_DOCUMENT_BYTES,
        timeoutMs: DOCUMENT_TIMEOUT_MS,
        signal,
      });
      const location = response.headers.get("location");
      if (REDIRECTS.has(response.status) && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new UrlError(`Too many redirects: ${url}`);
        current = new URL(location, current);
        continue;
      }
      return getRemoteDocument(current.href, response, (next) => load(next, signal, getSigner));
    }
  }

  // Documents are fetched signed by the instance actor, as Mastodon fetches what no user asked
  // for: servers in authorized-fetch mode answer only signed requests. Its key is read when a
  // request is made, never for a preloaded context.
  const instanceSigner = async (): Promise<Signer> => {
    const [rsa] = await instanceActorKeyPairs(ctx);
    if (!rsa) throw new Error("the instance actor has no key");
    return { keyId: new URL(`${ctx.config.baseUrl}${INSTANCE_ACTOR_PATH}#main-key`), privateKey: rsa.privateKey };
  };
  const byInstance: DocumentLoader = (url, options) => load(url, options?.signal ?? undefined, instanceSigner);
  const unsigned: DocumentLoader = (url, options) => load(url, options?.signal ?? undefined);
  const prefix = ["_fedify", "remoteDocument"] as const;
  // One cached loader per process: Fedify asks for a loader per request.
  const cachedDocuments = withStaticContexts(kvCache({ loader: byInstance, kv, prefix, kind: "object" }));
  const cachedContexts = withStaticContexts(kvCache({ loader: unsigned, kv, prefix, kind: "context" }));
  return {
    documentLoaderFactory: () => cachedDocuments,
    contextLoaderFactory: () => cachedContexts,
    // A user's signed fetches are never cached: what they return depends on who asked.
    authenticatedDocumentLoaderFactory: (identity) => (url, options) =>
      load(url, options?.signal ?? undefined, async () => identity),
  };
}
