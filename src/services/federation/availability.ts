import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { DeliveryHealth } from "../../db/repositories/federation-instances.ts";

const logger = getLogger(["gannet", "federation", "health"]);

/**
 * Servers marked unavailable, as Mastodon's DeliveryFailureTracker and UnavailableDomain do:
 * deliveries that could not reach a server (no answer, a time-out, a 5xx or 429) on seven
 * different days (UTC) since it last answered mark it unavailable (the delivery health rows,
 * written batched by delivery-health.ts); nothing is sent to it then, neither new activities nor
 * queued retries, until it is available again: an activity received from it, or an
 * administrator's "Restart delivery" (`/admin/instances/DOMAIN`). A delivery that reaches it (2xx,
 * or a 4xx other than 429) forgets its failure days.
 *
 * Every delivery asks: the set is read once and kept `CACHE_MS` per process (Mastodon caches its
 * list too), forgotten at once when this process records a change.
 */
export const CACHE_MS = 10_000;

const cache = new WeakMap<AppContext, { at: number; domains: Promise<Set<string>> }>();

function unavailableSet(ctx: AppContext): Promise<Set<string>> {
  const now = Date.now();
  const hit = cache.get(ctx);
  if (hit && now - hit.at < CACHE_MS) return hit.domains;
  const domains = ctx.repos.federationInstances.unavailableDomains().then(
    (list) => new Set(list),
    (error) => {
      logger.warn("Cannot read the unavailable servers; delivering to all: {error}", { error });
      cache.delete(ctx);
      return new Set<string>();
    },
  );
  cache.set(ctx, { at: now, domains });
  return domains;
}

/** Whether deliveries to `domain` (a host, with its port if any) are skipped. */
export async function isUnavailable(ctx: AppContext, domain: string): Promise<boolean> {
  return (await unavailableSet(ctx)).has(domain);
}

/** The servers marked unavailable (at most `CACHE_MS` old). */
export async function unavailableDomains(ctx: AppContext): Promise<Set<string>> {
  return unavailableSet(ctx);
}

/** Drops this process's copy of the set (it changed here). */
export function forgetUnavailable(ctx: AppContext): void {
  cache.delete(ctx);
}

/**
 * `domain` answered in another way than a delivery (an activity came from it) or an administrator
 * restarted delivery to it: its failure days are forgotten and it is available again.
 */
export async function markAvailable(ctx: AppContext, domain: string): Promise<boolean> {
  const changed = await ctx.repos.federationInstances.markAvailable(domain.toLowerCase());
  if (changed) {
    forgetUnavailable(ctx);
    logger.info("Delivery to {domain} restarted: it is available again", { domain });
  }
  return changed;
}

/**
 * A request signed by an actor of `domain` reached the inbox: if the server was unavailable, it
 * answers again (Mastodon's DeliveryFailureTracker.track_inverse_success!). Costs a set lookup
 * (the kept set) unless it was unavailable.
 */
export async function signedRequestFrom(ctx: AppContext, domain: string): Promise<void> {
  const host = domain.toLowerCase();
  if ((await unavailableSet(ctx)).has(host)) await markAvailable(ctx, host);
}

/** Servers unavailable or failing on a day or more (`gannet jobs list`), unavailable first; at most `limit`. */
export function serversNotReached(ctx: AppContext, limit = 100): Promise<DeliveryHealth[]> {
  return ctx.repos.federationInstances.notReached(limit);
}
