import type { AppContext } from "../../context.ts";
import type { IpBlock, IpBlockSeverity } from "../../db/repositories/sign-up-blocks.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { addressMatcher } from "../../lib/net/address-policy.ts";
import { canonicalCidr } from "../../lib/net/cidr.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { logAction, type Moderator } from "./action-log.ts";

export type { IpBlock, IpBlockSeverity };

export const IP_BLOCK_SEVERITIES: readonly IpBlockSeverity[] = [
  "sign_up_requires_approval",
  "sign_up_block",
  "no_access",
];

const invalid = (message: string) => new ApiError(422, `Validation failed: ${message}`);

/** What a create or update asks for; absent fields stay as they are (update) or take defaults. */
export interface IpBlockInput {
  ip?: string;
  severity?: string;
  comment?: string;
  /** Seconds from now; null or 0 removes the expiry. */
  expiresIn?: number | null;
}

function checkedRange(ip: string): string {
  if (ip.trim() === "") throw invalid("Ip can't be blank");
  const cidr = canonicalCidr(ip);
  if (cidr === undefined) throw invalid("Ip is invalid");
  return cidr;
}

function checkedSeverity(severity: string): IpBlockSeverity {
  if (!(IP_BLOCK_SEVERITIES as readonly string[]).includes(severity)) {
    throw invalid("Severity is not included in the list");
  }
  return severity as IpBlockSeverity;
}

const expiry = (seconds: number | null | undefined): string | null =>
  seconds ? new Date(Date.now() + seconds * 1000).toISOString() : null;

export function listIpBlocks(ctx: AppContext, window: IdWindow): Promise<IpBlock[]> {
  return ctx.repos.signUpBlocks.ipPage(window);
}

export async function findIpBlock(ctx: AppContext, id: string): Promise<IpBlock> {
  const block = isId(id) ? await ctx.repos.signUpBlocks.ipById(id) : undefined;
  if (!block) throw notFound();
  return block;
}

/** The block of exactly this range (for the `gannet` command); undefined for a bad range too. */
export async function ipBlockByRange(ctx: AppContext, ip: string): Promise<IpBlock | undefined> {
  const cidr = canonicalCidr(ip);
  return cidr === undefined ? undefined : ctx.repos.signUpBlocks.ipByRange(cidr);
}

/** Every block not expired yet (for the `gannet` command). */
export function activeIpBlocks(ctx: AppContext): Promise<IpBlock[]> {
  return ctx.repos.signUpBlocks.ipActive(new Date().toISOString());
}

const describe = (b: IpBlock) => `${b.ip} (${b.severity.replaceAll("_", " ")})`;

export async function createIpBlock(ctx: AppContext, by: Moderator, input: IpBlockInput): Promise<IpBlock> {
  const ip = checkedRange(input.ip ?? "");
  if (input.severity === undefined || input.severity === "") throw invalid("Severity can't be blank");
  const severity = checkedSeverity(input.severity);
  if (await ctx.repos.signUpBlocks.ipByRange(ip)) throw invalid("Ip has already been taken");
  const now = new Date().toISOString();
  const block: IpBlock = {
    id: ctx.ids.next(),
    ip,
    severity,
    comment: input.comment ?? "",
    expiresAt: expiry(input.expiresIn),
    createdAt: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.signUpBlocks.insertIp(block, trx);
    await logAction(
      ctx,
      by,
      {
        action: "create",
        targetType: "IpBlock",
        targetId: block.id,
        humanIdentifier: block.ip,
        summary: `created an IP block for ${describe(block)}`,
      },
      trx,
    );
  });
  await ipBlocksChanged(ctx);
  return block;
}

export async function updateIpBlock(
  ctx: AppContext,
  by: Moderator,
  block: IpBlock,
  input: IpBlockInput,
): Promise<IpBlock> {
  const next: IpBlock = { ...block };
  if (input.ip !== undefined) next.ip = checkedRange(input.ip);
  if (input.severity !== undefined) next.severity = checkedSeverity(input.severity);
  if (input.comment !== undefined) next.comment = input.comment;
  if (input.expiresIn !== undefined) next.expiresAt = expiry(input.expiresIn);
  if (next.ip !== block.ip) {
    const other = await ctx.repos.signUpBlocks.ipByRange(next.ip);
    if (other && other.id !== block.id) throw invalid("Ip has already been taken");
  }
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.signUpBlocks.updateIp(next, trx);
    await logAction(
      ctx,
      by,
      {
        action: "update",
        targetType: "IpBlock",
        targetId: block.id,
        humanIdentifier: next.ip,
        summary: `changed the IP block for ${describe(next)}`,
      },
      trx,
    );
  });
  await ipBlocksChanged(ctx);
  return next;
}

export async function destroyIpBlock(ctx: AppContext, by: Moderator, block: IpBlock): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await ctx.repos.signUpBlocks.deleteIp(block.id, trx))) throw notFound();
    await logAction(
      ctx,
      by,
      {
        action: "destroy",
        targetType: "IpBlock",
        targetId: block.id,
        humanIdentifier: block.ip,
        summary: `removed the IP block for ${describe(block)}`,
      },
      trx,
    );
  });
  await ipBlocksChanged(ctx);
}

/** Deletes expired blocks (the scheduler); they stopped applying when they expired. */
export async function pruneExpiredIpBlocks(ctx: AppContext): Promise<void> {
  if ((await ctx.repos.signUpBlocks.pruneExpiredIp(new Date().toISOString())) > 0) await ipBlocksChanged(ctx);
}

/** The strongest sign-up severity of the active blocks containing `ip` (a sign-up's address). */
export async function ipSignUpSeverity(ctx: AppContext, ip: string | null): Promise<IpBlockSeverity | undefined> {
  if (!ip) return undefined;
  const blocks = await ctx.repos.signUpBlocks.ipActive(new Date().toISOString());
  const matching = blocks.filter((b) => addressMatcher([b.ip])(ip)).map((b) => b.severity);
  for (const s of ["no_access", "sign_up_block", "sign_up_requires_approval"] as const) {
    if (matching.includes(s)) return s;
  }
  return undefined;
}

// --- `no_access`: refused before anything else runs -------------------------------------------

/** The bus channel that tells every process the IP blocks changed. */
export const IP_BLOCKS_CHANNEL = "moderation:ip_blocks";
/** Even without a message, each process re-reads the blocks this often (a change from `gannet`
 * with SQLite, whose bus stays in one process, is seen within this time). */
const REFRESH_MS = 60_000;

/** The `no_access` ranges of one process, in memory, checked on every request. */
class NoAccessRanges {
  #matcher: ((ip: string) => boolean) | null = null;
  /** When the soonest of the loaded blocks expires (ms); the matcher is rebuilt then. */
  #nextExpiry = Number.POSITIVE_INFINITY;
  #blocks: IpBlock[] = [];
  #loadedAt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;
  #subscribed = false;

  readonly ctx: AppContext;

  constructor(ctx: AppContext) {
    this.ctx = ctx;
  }

  /** Reads the blocks again (a change in this process awaits it). */
  reload(): Promise<void> {
    // Loads run one after another, so a reload asked for after a change reads after it.
    const run = (this.#loading ?? Promise.resolve()).catch(() => {}).then(() => this.#load());
    this.#loading = run;
    run
      .finally(() => {
        if (this.#loading === run) this.#loading = undefined;
      })
      .catch(() => {});
    return run;
  }

  async #load(): Promise<void> {
    if (!this.#subscribed) {
      this.#subscribed = true;
      const sub = this.ctx.bus.subscribe(IP_BLOCKS_CHANNEL, () => {
        void this.reload().catch(() => {});
      });
      // A lost subscription is taken again at the next load; the periodic re-read covers the gap.
      sub.ready.catch(() => {
        this.#subscribed = false;
      });
    }
    const blocks = await this.ctx.repos.signUpBlocks.ipActive(new Date().toISOString());
    this.#blocks = blocks.filter((b) => b.severity === "no_access");
    this.#loadedAt = Date.now();
    this.#rebuild();
  }

  #rebuild(): void {
    const now = Date.now();
    const live = this.#blocks.filter((b) => b.expiresAt === null || Date.parse(b.expiresAt) > now);
    this.#blocks = live;
    this.#nextExpiry = Math.min(
      Number.POSITIVE_INFINITY,
      ...live.filter((b) => b.expiresAt !== null).map((b) => Date.parse(b.expiresAt as string)),
    );
    this.#matcher = live.length === 0 ? null : addressMatcher(live.map((b) => b.ip));
  }

  /** Whether `ip()` is refused; answers without waiting once loaded (a stale copy is re-read behind). */
  denied(ip: () => string): boolean | Promise<boolean> {
    if (this.#loadedAt === Number.NEGATIVE_INFINITY) {
      return (this.#loading ?? this.reload()).then(() => this.#check(ip));
    }
    if (Date.now() - this.#loadedAt > REFRESH_MS && this.#loading === undefined) void this.reload().catch(() => {});
    return this.#check(ip);
  }

  #check(ip: () => string): boolean {
    if (Date.now() >= this.#nextExpiry) this.#rebuild();
    if (this.#matcher === null) return false;
    const address = ip();
    // Loopback is never refused (Mastodon's Rack::Attack safelist runs before its blocklist).
    return !isLoopback(address) && this.#matcher(address);
  }
}

function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.");
}

const ranges = new WeakMap<AppContext, NoAccessRanges>();

function noAccessRanges(ctx: AppContext): NoAccessRanges {
  let r = ranges.get(ctx);
  if (r === undefined) {
    r = new NoAccessRanges(ctx);
    ranges.set(ctx, r);
  }
  return r;
}

/**
 * Whether a request from `ip()` is refused by a `no_access` block (Mastodon's Rack::Attack
 * blocklist). The address is worked out only when some block exists.
 */
export function ipAccessDenied(ctx: AppContext, ip: () => string): boolean | Promise<boolean> {
  return noAccessRanges(ctx).denied(ip);
}

/**
 * After a change: this process re-reads the blocks at once (if it serves requests: a `gannet`
 * command holds none), the others when the bus tells them.
 */
async function ipBlocksChanged(ctx: AppContext): Promise<void> {
  await ranges.get(ctx)?.reload();
  await ctx.bus.publish(IP_BLOCKS_CHANNEL, "changed", null);
}
