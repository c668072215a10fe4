import { verifyRequest } from "@fedify/fedify";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { accountForActor } from "../persist/actor.ts";
import { hostOf } from "../persist/origin.ts";

/**
 * The remote account that signed a request (Mastodon's `require_account_signature!`): its HTTP
 * signature verified by Fedify's `verifyRequest` (draft-cavage or RFC 9421, digest and time window
 * included), its key's owner an actor of a server federated with, stored or fetched, and not
 * suspended. Undefined for anything else.
 */
export async function signingAccount(app: AppContext, request: Request): Promise<Account | undefined> {
  const federation = await app.federation();
  const fctx = federation.createContext(request, app);
  const key = await verifyRequest(request, {
    documentLoader: fctx.documentLoader,
    contextLoader: fctx.contextLoader,
  }).catch(() => null);
  const owner = key?.ownerId;
  if (!owner || !/^https?:$/.test(owner.protocol)) return undefined;
  if (!(await app.repos.instanceDomainBlocks.isDeliveryAllowed(hostOf(owner)))) return undefined;
  const account = await accountForActor(fctx, owner);
  if (!account || account.domain === null || account.suspendedAt !== null) return undefined;
  return account;
}
