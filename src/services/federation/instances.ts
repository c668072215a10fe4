import type { AppContext } from "../../context.ts";
import type { InstanceCounts, InstanceFilter } from "../../db/repositories/federation-instances.ts";
import {
  domainAllowOf,
  type InstanceDomainAllow,
  type InstanceDomainBlock,
  ruleFor,
} from "../moderation/domain-blocks.ts";
import {
  type DeliveryHealth,
  deliveryHealthOf,
  type QueuedDeliveries,
  queuedDeliveriesTo,
  repo,
} from "./delivery-health.ts";

export type { DeliveryHealth, InstanceCounts, InstanceFilter, QueuedDeliveries };

/** A known remote server as the moderation panel shows it. */
export interface KnownInstance {
  domain: string;
  counts: InstanceCounts;
  health: DeliveryHealth | undefined;
  /** The block covering the server (its own or a parent domain's). */
  block: InstanceDomainBlock | undefined;
  allow: InstanceDomainAllow | undefined;
}

async function describe(ctx: AppContext, domains: string[]): Promise<KnownInstance[]> {
  const [counts, health] = await Promise.all([repo(ctx).counts(domains), deliveryHealthOf(ctx, domains)]);
  const out: KnownInstance[] = [];
  for (const domain of domains) {
    out.push({
      domain,
      counts: counts.get(domain) ?? { accounts: 0, followedFromHere: 0, followingHere: 0, reports: 0 },
      health: health.get(domain),
      block: await ruleFor(ctx, domain),
      allow: await domainAllowOf(ctx, domain),
    });
  }
  return out;
}

/**
 * One page of known servers (domains of known accounts, of delivery health records and of
 * domain blocks), by name, with their counts, delivery health and block state.
 */
export async function listInstances(
  ctx: AppContext,
  filter: InstanceFilter,
  page: number,
  perPage: number,
): Promise<{ instances: KnownInstance[]; more: boolean }> {
  const domains = await repo(ctx).list(filter, Math.max(0, page - 1) * perPage, perPage);
  const more = domains.length > perPage;
  return { instances: await describe(ctx, domains.slice(0, perPage)), more };
}

/** One server (known or not: a domain typed into the address works too), with its queued deliveries. */
export async function instanceDetail(
  ctx: AppContext,
  domain: string,
): Promise<KnownInstance & { queued: QueuedDeliveries & { capped: boolean } }> {
  const [known] = await describe(ctx, [domain]);
  return { ...known, queued: await queuedDeliveriesTo(ctx, domain) };
}

/** How many accounts of `domain` this server knows (what a block would act on). */
export async function knownAccountCount(ctx: AppContext, domain: string): Promise<number> {
  return (await repo(ctx).counts([domain])).get(domain)?.accounts ?? 0;
}
