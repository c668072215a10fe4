import type { AppContext } from "../../context.ts";
import type { CanonicalEmailBlock, EmailDomainBlock } from "../../db/repositories/sign-up-blocks.ts";
import { sha256 } from "../../lib/crypto.ts";
import { normalizeDomain } from "../../lib/domains.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { logAction, type Moderator } from "./action-log.ts";

export type { CanonicalEmailBlock, EmailDomainBlock };

/** Mastodon's 422 for a record that fails validation (`Validation failed: Domain is invalid`). */
const invalid = (message: string) => new ApiError(422, `Validation failed: ${message}`);

// --- E-mail domain blocks ---------------------------------------------------------------------

/** The domain of an address (after the last `@`), normalised as Mastodon does; null without one. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 0) return null;
  return normalizeDomain(email.slice(at + 1));
}

/** A domain and every parent of it: `a.b.example.com`, `b.example.com`, `example.com`, `com`. */
function withParents(domain: string): string[] {
  const labels = domain.split(".");
  return labels.map((_, i) => labels.slice(i).join("."));
}

export function listEmailDomainBlocks(ctx: AppContext, window: IdWindow): Promise<EmailDomainBlock[]> {
  return ctx.repos.signUpBlocks.emailDomainPage(window);
}

export async function findEmailDomainBlock(ctx: AppContext, id: string): Promise<EmailDomainBlock> {
  const block = isId(id) ? await ctx.repos.signUpBlocks.emailDomainById(id) : undefined;
  if (!block) throw notFound();
  return block;
}

/** Blocks sign-ups from addresses of `domain` and its subdomains (or sends them to the approval queue). */
export async function createEmailDomainBlock(
  ctx: AppContext,
  by: Moderator,
  input: { domain: string; allowWithApproval: boolean },
): Promise<EmailDomainBlock> {
  if (input.domain.trim() === "") throw invalid("Domain can't be blank");
  const domain = normalizeDomain(input.domain);
  if (domain === null) throw invalid("Domain is invalid");
  if (await ctx.repos.signUpBlocks.emailDomainByDomain(domain)) throw invalid("Domain has already been taken");
  const block: EmailDomainBlock = {
    id: ctx.ids.next(),
    domain,
    allowWithApproval: input.allowWithApproval,
    createdAt: new Date().toISOString(),
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.signUpBlocks.insertEmailDomain(block, trx);
      await logAction(
        ctx,
        by,
        {
          action: "create",
          targetType: "EmailDomainBlock",
          targetId: block.id,
          humanIdentifier: domain,
          summary: `blocked e-mail domain ${domain}${block.allowWithApproval ? " (sign-ups need approval)" : ""}`,
        },
        trx,
      );
    });
  } catch (e) {
    // Two requests racing for one domain: the unique index refused the second.
    if (await ctx.repos.signUpBlocks.emailDomainByDomain(domain)) throw invalid("Domain has already been taken");
    throw e;
  }
  return block;
}

export async function destroyEmailDomainBlock(ctx: AppContext, by: Moderator, block: EmailDomainBlock): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await ctx.repos.signUpBlocks.deleteEmailDomain(block.id, trx))) throw notFound();
    await logAction(
      ctx,
      by,
      {
        action: "destroy",
        targetType: "EmailDomainBlock",
        targetId: block.id,
        humanIdentifier: block.domain,
        summary: `unblocked e-mail domain ${block.domain}`,
      },
      trx,
    );
  });
}

/** The block of exactly `domain` (for the `gannet` command). */
export async function emailDomainBlockByDomain(ctx: AppContext, domain: string): Promise<EmailDomainBlock | undefined> {
  return ctx.repos.signUpBlocks.emailDomainByDomain(domain);
}

export function allEmailDomainBlocks(ctx: AppContext): Promise<EmailDomainBlock[]> {
  return ctx.repos.signUpBlocks.emailDomainAll();
}

/** One day of a block's history, as Mastodon's Trends::History renders it (strings). */
export interface HistoryDay {
  day: string;
  accounts: string;
  uses: string;
}

const DAY_MS = 86_400_000;

/**
 * The sign-up attempts each block caught over the last seven days, newest day first: `uses`
 * attempts and `accounts` distinct client addresses per UTC day (Mastodon counts the same).
 */
export async function emailDomainBlockHistories(
  ctx: AppContext,
  blocks: EmailDomainBlock[],
  now = new Date(),
): Promise<Map<string, HistoryDay[]>> {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const days = Array.from({ length: 7 }, (_, i) => today - i * DAY_MS);
  const since = new Date(days[6] as number).toISOString().slice(0, 10);
  const counts = await ctx.repos.signUpBlocks.attemptDays(
    blocks.map((b) => b.id),
    since,
  );
  const out = new Map<string, HistoryDay[]>();
  for (const block of blocks) {
    const byDay = new Map((counts.get(block.id) ?? []).map((d) => [d.day, d]));
    out.set(
      block.id,
      days.map((ms) => {
        const d = byDay.get(new Date(ms).toISOString().slice(0, 10));
        return { day: String(ms / 1000), accounts: String(d?.accounts ?? 0), uses: String(d?.uses ?? 0) };
      }),
    );
  }
  return out;
}

// --- Canonical e-mail blocks ------------------------------------------------------------------

/**
 * An address in Mastodon's canonical form: lower case; in the local part, dots removed and
 * everything from the first `+` dropped (`J.Doe+x@Example.com` is `jdoe@example.com`).
 */
export function canonicalEmail(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.indexOf("@");
  const local = at < 0 ? lower : lower.slice(0, at);
  const domain = at < 0 ? "" : lower.slice(at + 1);
  const base = local.replaceAll(".", "").split("+", 1)[0] ?? "";
  return `${base}@${domain}`;
}

/** The hex SHA-256 of the canonical address, as a canonical e-mail block stores it. */
export function canonicalEmailHash(email: string): string {
  return sha256(canonicalEmail(email));
}

export function listCanonicalEmailBlocks(ctx: AppContext, window: IdWindow): Promise<CanonicalEmailBlock[]> {
  return ctx.repos.signUpBlocks.canonicalPage(window);
}

export function allCanonicalEmailBlocks(ctx: AppContext): Promise<CanonicalEmailBlock[]> {
  return ctx.repos.signUpBlocks.canonicalAll();
}

export async function findCanonicalEmailBlock(ctx: AppContext, id: string): Promise<CanonicalEmailBlock> {
  const block = isId(id) ? await ctx.repos.signUpBlocks.canonicalById(id) : undefined;
  if (!block) throw notFound();
  return block;
}

/** The blocks matching `email` (Mastodon's `POST /api/v1/admin/canonical_email_blocks/test`). */
export async function canonicalEmailBlocksMatching(ctx: AppContext, email: string): Promise<CanonicalEmailBlock[]> {
  if (email.trim() === "") return [];
  return ctx.repos.signUpBlocks.canonicalByHash(canonicalEmailHash(email));
}

const HASH_RE = /^[0-9a-f]{64}$/;

/**
 * Blocks an address by its canonical hash: give `email` (hashed here) or `canonicalEmailHash`
 * (64 hex digits). `referenceAccountId` names the account whose address it was, if any.
 */
export async function createCanonicalEmailBlock(
  ctx: AppContext,
  by: Moderator,
  input: { email?: string; canonicalEmailHash?: string; referenceAccountId?: string | null },
): Promise<CanonicalEmailBlock> {
  let hash: string;
  let human: string;
  if (input.email !== undefined && input.email.trim() !== "") {
    hash = canonicalEmailHash(input.email);
    human = canonicalEmail(input.email);
  } else if (input.canonicalEmailHash !== undefined && input.canonicalEmailHash.trim() !== "") {
    hash = input.canonicalEmailHash.trim().toLowerCase();
    if (!HASH_RE.test(hash)) throw invalid("Canonical email hash is invalid");
    human = hash;
  } else {
    throw invalid("Canonical email hash can't be blank");
  }
  if ((await ctx.repos.signUpBlocks.canonicalByHash(hash)).length > 0) {
    throw invalid("Canonical email hash has already been taken");
  }
  const block: CanonicalEmailBlock = {
    id: ctx.ids.next(),
    canonicalEmailHash: hash,
    referenceAccountId: input.referenceAccountId ?? null,
    createdAt: new Date().toISOString(),
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.signUpBlocks.insertCanonical(block, trx);
      await logAction(
        ctx,
        by,
        {
          action: "create",
          targetType: "CanonicalEmailBlock",
          targetId: block.id,
          humanIdentifier: hash,
          summary: `blocked the e-mail address ${human}`,
        },
        trx,
      );
    });
  } catch (e) {
    if ((await ctx.repos.signUpBlocks.canonicalByHash(hash)).length > 0) {
      throw invalid("Canonical email hash has already been taken");
    }
    throw e;
  }
  return block;
}

/**
 * Blocks `email` for future sign-ups, naming the account it belonged to (suspending an account
 * with Mastodon's "block e-mail" choice). Answers the existing block when the address is blocked.
 */
export async function blockCanonicalEmail(
  ctx: AppContext,
  by: Moderator,
  email: string,
  referenceAccountId: string | null,
): Promise<CanonicalEmailBlock> {
  const [existing] = await canonicalEmailBlocksMatching(ctx, email);
  if (existing) return existing;
  return createCanonicalEmailBlock(ctx, by, { email, referenceAccountId });
}

/**
 * Blocks the address of the local account `username` (`gannet canonical-email-blocks add
 * --account`); undefined when there is no such local user.
 */
export async function blockLocalAccountEmail(
  ctx: AppContext,
  by: Moderator,
  username: string,
): Promise<CanonicalEmailBlock | undefined> {
  const account = await ctx.repos.accounts.getByUsername(username, null);
  const user = account ? await ctx.repos.users.getByAccountId(account.id) : undefined;
  if (!account || !user) return undefined;
  return blockCanonicalEmail(ctx, by, user.email, account.id);
}

/** Removes the blocks matching an address (any spelling) or a hash; answers how many. */
export async function removeCanonicalEmailBlocks(ctx: AppContext, by: Moderator, emailOrHash: string): Promise<number> {
  const value = emailOrHash.trim().toLowerCase();
  const matching = HASH_RE.test(value)
    ? await ctx.repos.signUpBlocks.canonicalByHash(value)
    : await canonicalEmailBlocksMatching(ctx, value);
  for (const block of matching) await destroyCanonicalEmailBlock(ctx, by, block);
  return matching.length;
}

export async function destroyCanonicalEmailBlock(
  ctx: AppContext,
  by: Moderator,
  block: CanonicalEmailBlock,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await ctx.repos.signUpBlocks.deleteCanonical(block.id, trx))) throw notFound();
    await logAction(
      ctx,
      by,
      {
        action: "destroy",
        targetType: "CanonicalEmailBlock",
        targetId: block.id,
        humanIdentifier: block.canonicalEmailHash,
        summary: `unblocked the e-mail address with hash ${block.canonicalEmailHash}`,
      },
      trx,
    );
  });
}

// --- What the blocks do to a sign-up or an e-mail change --------------------------------------

/** Mastodon's validation errors for a blocked address (UserEmailValidator). */
export const EMAIL_BLOCKED = { error: "ERR_BLOCKED", description: "uses a disallowed e-mail provider" } as const;
export const EMAIL_TAKEN = { error: "ERR_TAKEN", description: "is already taken" } as const;

export interface EmailVerdict {
  /** The e-mail's domain (or a parent) is blocked outright. */
  blocked: boolean;
  /** A canonical e-mail block matches (Mastodon says the address is taken). */
  canonicalBlocked: boolean;
  /** A block with `allow_with_approval` matches: the sign-up waits for a moderator. */
  requiresApproval: boolean;
}

/**
 * What the e-mail blocks say of `email` (a syntactically valid address). With `attemptIp`
 * (a sign-up), every matching domain block records the attempt for its history.
 */
export async function emailVerdict(ctx: AppContext, email: string, attemptIp?: string | null): Promise<EmailVerdict> {
  const domain = emailDomain(email);
  const blocks = domain === null ? [] : await ctx.repos.signUpBlocks.emailDomainsMatching(withParents(domain));
  const canonical = await canonicalEmailBlocksMatching(ctx, email);
  if (attemptIp !== undefined && blocks.length > 0) {
    await ctx.repos.signUpBlocks.recordAttempts(
      blocks.map((b) => b.id),
      attemptIp ?? "",
      new Date(),
    );
  }
  const blocked = blocks.some((b) => !b.allowWithApproval);
  return {
    blocked,
    canonicalBlocked: canonical.length > 0,
    requiresApproval: !blocked && blocks.some((b) => b.allowWithApproval),
  };
}
