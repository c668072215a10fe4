import { createHash } from "node:crypto";
import type { AppContext } from "../../context.ts";
import {
  coveringDomains,
  type DomainBlockInput,
  type DomainBlockPatch,
  type DomainBlockSeverity,
  type InstanceDomainAllow,
  type InstanceDomainBlock,
} from "../../db/repositories/instance-domain-blocks.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { normalizeDomainWithPort } from "../../lib/domains.ts";
import { type ApiError, notFound, unprocessable } from "../../lib/errors.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { purgeDomainMediaCache } from "../media/remote-cache.ts";
import { logAction, type Moderator } from "./action-log.ts";
import { DOMAIN_BLOCK_JOB } from "./domain-purge.ts";

export type { DomainBlockInput, DomainBlockPatch, DomainBlockSeverity, InstanceDomainAllow, InstanceDomainBlock };

export const DOMAIN_BLOCK_SEVERITIES: readonly DomainBlockSeverity[] = ["silence", "suspend", "noop"];

/**
 * Mastodon's DomainBlock#stricter_than?: whether `block` limits at least as much as `other`
 * (a suspension always does; else the severity, then each reject flag, must be at least as strong).
 */
export function stricterThan(block: DomainBlockInput, other: InstanceDomainBlock): boolean {
  if (block.severity === "suspend") return true;
  if (other.severity === "suspend") return false;
  if (other.severity === "silence" && block.severity === "noop") return false;
  return (block.rejectMedia || !other.rejectMedia) && (block.rejectReports || !other.rejectReports);
}

/** Mastodon's Admin::DomainBlock entity. */
export function domainBlockJson(b: InstanceDomainBlock): Record<string, unknown> {
  return {
    id: b.id,
    domain: b.domain,
    digest: createHash("sha256").update(b.domain).digest("hex"),
    created_at: b.createdAt,
    severity: b.severity,
    reject_media: b.rejectMedia,
    reject_reports: b.rejectReports,
    private_comment: b.privateComment,
    public_comment: b.publicComment,
    obfuscate: b.obfuscate,
  };
}

/** Mastodon's Admin::DomainAllow entity. */
export function domainAllowJson(a: InstanceDomainAllow): Record<string, unknown> {
  return { id: a.id, domain: a.domain, created_at: a.createdAt };
}

/** A domain a moderator typed, normalised; 422 (Mastodon's validation error) when it is none. */
export function blockDomain(ctx: AppContext, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw unprocessable("Validation failed: Domain can't be blank");
  const domain = normalizeDomainWithPort(value);
  if (domain === null) throw unprocessable("Validation failed: Domain is not a valid domain name");
  const own = [ctx.config.localDomain.toLowerCase(), ctx.config.webDomain.toLowerCase()];
  if (own.includes(domain)) throw unprocessable("Validation failed: Domain is this server's own domain");
  return domain;
}

/** The block that covers `domain` (its own or its nearest parent's), Mastodon's DomainBlock.rule_for. */
export function ruleFor(ctx: AppContext, domain: string): Promise<InstanceDomainBlock | undefined> {
  return ctx.repos.instanceDomainBlocks.ruleFor(domain);
}

export function listDomainBlocks(ctx: AppContext, window: IdWindow): Promise<InstanceDomainBlock[]> {
  return ctx.repos.instanceDomainBlocks.page(window);
}

export async function findDomainBlock(ctx: AppContext, id: string): Promise<InstanceDomainBlock> {
  const block = /^\d{1,19}$/.test(id) ? await ctx.repos.instanceDomainBlocks.getById(id) : undefined;
  if (!block) throw notFound();
  return block;
}

/** The 422 of a block an existing one already covers, with that block rendered. */
function conflict(existing: InstanceDomainBlock): ApiError {
  return unprocessable(`You have already imposed stricter limits on ${existing.domain}.`, {
    existing_domain_block: domainBlockJson(existing),
  });
}

/**
 * Adds a block. Refused (422, the covering block in the body) when the domain has a block or a
 * parent domain's block is at least as strong: a stricter block of a subdomain is allowed. Its
 * severity is applied to the domain's known accounts, marked with the block's creation time; a
 * suspension's purge, and the removal of cached media, run as jobs.
 */
export async function createDomainBlock(
  ctx: AppContext,
  by: Moderator,
  input: DomainBlockInput,
): Promise<InstanceDomainBlock> {
  const existing = await ruleFor(ctx, input.domain);
  if (existing && (existing.domain === input.domain || !stricterThan(input, existing))) throw conflict(existing);
  const now = new Date().toISOString();
  try {
    return await transactionWithJobs(ctx, async (trx, jobs) => {
      const block = await ctx.repos.instanceDomainBlocks.insert(input, ctx.ids.next(), now, trx);
      await ctx.repos.instanceDomainBlocks.applyToAccounts(block.domain, block.severity, block.createdAt, trx);
      await logAction(
        ctx,
        by,
        {
          action: "create",
          targetType: "DomainBlock",
          targetId: block.id,
          humanIdentifier: block.domain,
          summary: `blocked domain ${block.domain} (${describe(block)})`,
        },
        trx,
      );
      queueBlockJob(jobs, block);
      return block;
    });
  } catch (e) {
    // A block of the same domain added meanwhile: the same answer as when it was there first.
    const raced = await ctx.repos.instanceDomainBlocks.getByDomain(input.domain);
    if (raced) throw conflict(raced);
    throw e;
  }
}

/**
 * Changes a block. A severity change first lifts what the earlier severity did to the accounts
 * the block limited (those marked with its creation time; accounts limited one by one stay), then
 * applies the new one.
 */
export async function updateDomainBlock(
  ctx: AppContext,
  by: Moderator,
  block: InstanceDomainBlock,
  patch: DomainBlockPatch,
): Promise<InstanceDomainBlock> {
  const now = new Date().toISOString();
  const repo = ctx.repos.instanceDomainBlocks;
  return transactionWithJobs(ctx, async (trx, jobs) => {
    const updated = await repo.update(block.id, patch, now, trx);
    if (updated.severity !== "silence") await repo.liftFromAccounts(block.domain, "silence", block.createdAt, trx);
    if (updated.severity !== "suspend") await repo.liftFromAccounts(block.domain, "suspend", block.createdAt, trx);
    await repo.applyToAccounts(updated.domain, updated.severity, updated.createdAt, trx);
    await logAction(
      ctx,
      by,
      {
        action: "update",
        targetType: "DomainBlock",
        targetId: block.id,
        humanIdentifier: block.domain,
        summary: `changed block for domain ${block.domain} (${describe(updated)})`,
      },
      trx,
    );
    // A suspension already under way goes on by itself; one that was not gets its purge now.
    if (updated.severity !== block.severity || updated.rejectMedia !== block.rejectMedia) queueBlockJob(jobs, updated);
    return updated;
  });
}

/** Removes a block and lifts what it did to the accounts it limited (and only those). */
export async function destroyDomainBlock(ctx: AppContext, by: Moderator, block: InstanceDomainBlock): Promise<void> {
  const repo = ctx.repos.instanceDomainBlocks;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteById(block.id, trx))) return;
    await repo.liftFromAccounts(block.domain, "silence", block.createdAt, trx);
    await repo.liftFromAccounts(block.domain, "suspend", block.createdAt, trx);
    await logAction(
      ctx,
      by,
      {
        action: "destroy",
        targetType: "DomainBlock",
        targetId: block.id,
        humanIdentifier: block.domain,
        summary: `unblocked domain ${block.domain}`,
      },
      trx,
    );
  });
}

/** `gannet domains block`: adds the block, or changes the domain's own block when it has one. */
export async function blockOrUpdate(
  ctx: AppContext,
  by: Moderator,
  input: DomainBlockInput,
): Promise<{ block: InstanceDomainBlock; created: boolean }> {
  const own = await ctx.repos.instanceDomainBlocks.getByDomain(input.domain);
  if (own) {
    const { domain: _domain, ...patch } = input;
    return { block: await updateDomainBlock(ctx, by, own, patch), created: false };
  }
  return { block: await createDomainBlock(ctx, by, input), created: true };
}

export function listDomainAllows(ctx: AppContext, window: IdWindow): Promise<InstanceDomainAllow[]> {
  return ctx.repos.instanceDomainBlocks.pageAllows(window);
}

export async function findDomainAllow(ctx: AppContext, id: string): Promise<InstanceDomainAllow> {
  const allow = /^\d{1,19}$/.test(id) ? await ctx.repos.instanceDomainBlocks.getAllowById(id) : undefined;
  if (!allow) throw notFound();
  return allow;
}

/** Allows a domain (limited-federation mode); an allow that exists is answered as it is, unlogged. */
export async function createDomainAllow(
  ctx: AppContext,
  by: Moderator,
  domain: string,
): Promise<{ allow: InstanceDomainAllow; created: boolean }> {
  const known = await ctx.repos.instanceDomainBlocks.getAllowByDomain(domain);
  if (known) return { allow: known, created: false };
  return ctx.db.transaction().execute(async (trx) => {
    const r = await ctx.repos.instanceDomainBlocks.allow(domain, ctx.ids.next(), new Date().toISOString(), trx);
    if (r.created) {
      await logAction(
        ctx,
        by,
        {
          action: "create",
          targetType: "DomainAllow",
          targetId: r.allow.id,
          humanIdentifier: domain,
          summary: `allowed federation with domain ${domain}`,
        },
        trx,
      );
    }
    return r;
  });
}

export async function destroyDomainAllow(ctx: AppContext, by: Moderator, allow: InstanceDomainAllow): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await ctx.repos.instanceDomainBlocks.deleteAllowById(allow.id, trx))) return;
    await logAction(
      ctx,
      by,
      {
        action: "destroy",
        targetType: "DomainAllow",
        targetId: allow.id,
        humanIdentifier: allow.domain,
        summary: `disallowed federation with domain ${allow.domain}`,
      },
      trx,
    );
  });
}

/** Every block by domain, and the allowed domains (`gannet domains list`). */
export async function allBlocksAndAllows(
  ctx: AppContext,
): Promise<{ blocks: InstanceDomainBlock[]; allows: string[] }> {
  return {
    blocks: await ctx.repos.instanceDomainBlocks.list(),
    allows: await ctx.repos.instanceDomainBlocks.listAllows(),
  };
}

export { coveringDomains };

/** Removes the cached copies of the domain's media when the block rejects media or suspends. */
export async function clearDomainMedia(ctx: AppContext, block: InstanceDomainBlock): Promise<void> {
  if (block.rejectMedia || block.severity === "suspend") await purgeDomainMediaCache(ctx, block.domain);
}

/** The block of exactly `domain`, if any. */
export function domainBlockOf(ctx: AppContext, domain: string): Promise<InstanceDomainBlock | undefined> {
  return ctx.repos.instanceDomainBlocks.getByDomain(domain);
}

/** The allow of exactly `domain`, if any. */
export function domainAllowOf(ctx: AppContext, domain: string): Promise<InstanceDomainAllow | undefined> {
  return ctx.repos.instanceDomainBlocks.getAllowByDomain(domain);
}

function describe(b: InstanceDomainBlock): string {
  const parts: string[] = [b.severity];
  if (b.rejectMedia) parts.push("reject media");
  if (b.rejectReports) parts.push("reject reports");
  return parts.join(", ");
}

function queueBlockJob(jobs: { add(name: string, payload?: unknown): void }, block: InstanceDomainBlock): void {
  if (block.severity === "suspend" || block.rejectMedia) jobs.add(DOMAIN_BLOCK_JOB, { blockId: block.id });
}
