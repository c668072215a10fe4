import { isActor } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { fedifyContext, RESOLVE_TIMEOUT_MS, storeActor } from "./accounts.ts";

/**
 * Fetches a remote account's actor again, signed by the local account `signer` (Fedify's
 * authenticated loader, which keeps no cache, unlike the shared document loader), and stores it.
 * undefined when it cannot be had in time or is no longer an actor.
 */
export async function refetchActor(app: AppContext, signer: Account, remote: Account): Promise<Account | undefined> {
  const ctx = await fedifyContext(app);
  const documentLoader = await ctx.getDocumentLoader({ identifier: signer.username });
  let actor: unknown;
  try {
    actor = await ctx.lookupObject(remote.uri, {
      documentLoader,
      contextLoader: ctx.contextLoader,
      crossOrigin: "ignore",
      signal: AbortSignal.timeout(RESOLVE_TIMEOUT_MS),
    });
  } catch {
    return undefined;
  }
  if (!isActor(actor) || actor.id?.href !== remote.uri) return undefined;
  return storeActor(app, ctx, actor);
}
