import { AsyncLocalStorage } from "node:async_hooks";
import type { Federation } from "@fedify/fedify";
import type { AppContext } from "../../context.ts";

/**
 * Fedify's inbox verifies an activity's HTTP signature again after the precheck verified it
 * (precheck.ts: node:crypto with a held key, or Fedify's own `verifyRequestDetailed` in the gate):
 * the request cloned, the digest and the RSA signature computed again, its spans (about 14% of
 * the main thread's time per activity). Fedify's `skipSignatureVerification` is one switch for
 * the whole federation object; here it is turned per request instead: the federation's field
 * becomes a getter that answers true only inside `withPrecheckedSigner`, and only to its first
 * read (Fedify reads it once per inbox POST, in `handleInbox`), so that nothing else running in
 * that async context (a nested fetch, work started from a listener) inherits it.
 *
 * The precheck hands a request here only when it verified the signature itself and the key's
 * owner is the activity's `actor` as the JSON says (precheck.ts, `precheckedOwnerOf`). Fedify
 * skips with the verification its check that the key's owner is the parsed activity's actor
 * (`doesActorOwnKey`); that check is made again on what Fedify parsed, by `senderOf`
 * (common.ts) through `precheckedOwner`: a JSON-LD context that makes `actor` mean something
 * else than the parsed actor is dropped there.
 */
const scope = new AsyncLocalStorage<{ owner: string; read: boolean }>();

/** Makes the federation's `skipSignatureVerification` per request (`withPrecheckedSigner`). */
export function installPerRequestSkip(federation: Federation<AppContext>): void {
  const fields = federation as unknown as { skipSignatureVerification?: unknown };
  if (fields.skipSignatureVerification !== false) {
    throw new Error("Fedify's federation object changed: skipSignatureVerification is not where Gannet reads it");
  }
  Object.defineProperty(federation, "skipSignatureVerification", {
    configurable: true,
    enumerable: true,
    get() {
      const store = scope.getStore();
      if (store === undefined || store.read) return false;
      store.read = true;
      return true;
    },
    set() {
      throw new Error("skipSignatureVerification is per request in Gannet (verified-skip.ts)");
    },
  });
}

/**
 * Runs `f` (the federation's `fetch` of one inbox POST whose signature the precheck verified,
 * signed with a key of `owner`) with Fedify's own verification skipped.
 */
export function withPrecheckedSigner<T>(owner: string, f: () => T): T {
  return scope.run({ owner, read: false }, f);
}

/** The verified signer's actor, while a listener runs for an activity `withPrecheckedSigner` let through. */
export function precheckedOwner(): string | undefined {
  return scope.getStore()?.owner;
}
