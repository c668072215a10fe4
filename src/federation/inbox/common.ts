import type { InboxContext, InboxListener } from "@fedify/fedify";
import type { Activity } from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { isAccountDeleted } from "../../policies/accounts.ts";
import { accountForActor } from "../persist/actor.ts";
import { hostOf } from "../persist/origin.ts";
import { precheckedOwner } from "./verified-skip.ts";

export type Ctx = InboxContext<AppContext>;

const logger = getLogger(["gannet", "federation", "inbox"]);

/**
 * What a suspended account may still send (Mastodon's ProcessCollectionService
 * `activity_allowed_while_suspended?`): taking things back, and the Update of its actor that
 * tells of the end of a suspension by its own server.
 */
const ALLOWED_WHILE_SUSPENDED: ReadonlySet<string> = new Set(["Delete", "Update", "Undo", "Reject"]);

/**
 * The account an activity comes from: its actor (whose key signed it: Fedify checked that before
 * any listener runs, or the precheck and here: verified-skip.ts), stored or fetched; null when its domain is suspended or not allowed, or the
 * account is deleted, or suspended (here or by its server) and the activity is not one of
 * `ALLOWED_WHILE_SUSPENDED`.
 */
export async function senderOf(ctx: Ctx, activity: Activity, type: string): Promise<Account | null> {
  const actorId = activity.actorId;
  if (!actorId || !/^https?:$/.test(actorId.protocol)) return null;
  if (activity.actorIds.length !== 1) return null;
  // Fedify's check that the signing key's owner is the actor, which it skips for an activity the
  // precheck verified (verified-skip.ts), made on the actor as Fedify parsed it.
  const owner = precheckedOwner();
  if (owner !== undefined && actorId.href !== owner) return null;
  if (!(await ctx.data.repos.instanceDomainBlocks.isDeliveryAllowed(hostOf(actorId)))) return null;
  const account = await accountForActor(ctx, actorId);
  if (!account || account.domain === null || isAccountDeleted(account)) return null;
  if (account.suspendedAt !== null && !ALLOWED_WHILE_SUSPENDED.has(type)) return null;
  return account;
}

/** Errors of the remote's data (bad vocabulary, bad values): retrying cannot fix them. */
function isDataError(error: unknown): boolean {
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return true;
  const name = (error as { name?: unknown })?.name;
  return typeof name === "string" && /jsonld/i.test(name);
}

/**
 * Wraps a listener: it runs only for an activity whose sender may act here (`senderOf`), and
 * an error in the remote's data is logged and dropped (answered 202, never retried), while a
 * failure of ours (the database) is thrown so that Fedify answers 500 and the sender retries
 * (activities are processed in the request that brings them: federation/queue.ts).
 */
export function listener<T extends Activity>(
  type: string,
  handle: (ctx: Ctx, activity: T, sender: Account) => Promise<void>,
): InboxListener<AppContext, T> {
  return async (ctx, activity) => {
    const sender = await senderOf(ctx, activity, type);
    if (!sender) {
      logger.info("{type} {id} dropped: its sender may not act here", { type, id: activity.id?.href });
      return;
    }
    try {
      await handle(ctx, activity, sender);
    } catch (error) {
      if (!isDataError(error)) throw error;
      logger.warn("{type} {id} from {actor} dropped: {error}", {
        type,
        id: activity.id?.href,
        actor: sender.uri,
        error: String(error),
      });
    }
  };
}

/** The local account an actor URI of ours names (`/users/{identifier}`), if it exists. */
export async function localAccountOf(ctx: Ctx, uri: URL | null): Promise<Account | undefined> {
  if (!uri) return undefined;
  const parsed = ctx.parseUri(uri);
  if (parsed?.type !== "actor") return undefined;
  const account = await ctx.data.repos.accounts.getByUsername(parsed.identifier, null);
  return account && account.suspendedAt === null ? account : undefined;
}
