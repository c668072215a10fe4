import type { Kysely } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

/** An e-mail domain block (Mastodon's EmailDomainBlock). */
export interface EmailDomainBlock {
  id: string;
  domain: string;
  allowWithApproval: boolean;
  createdAt: string;
}

/** A block of one canonical e-mail address, by its SHA-256 (Mastodon's CanonicalEmailBlock). */
export interface CanonicalEmailBlock {
  id: string;
  canonicalEmailHash: string;
  referenceAccountId: string | null;
  createdAt: string;
}

export type IpBlockSeverity = "sign_up_requires_approval" | "sign_up_block" | "no_access";

/** An IP range block (Mastodon's IpBlock); `ip` is a canonical CIDR. */
export interface IpBlock {
  id: string;
  ip: string;
  severity: IpBlockSeverity;
  comment: string;
  expiresAt: string | null;
  createdAt: string;
}

/** Uses and distinct addresses of one UTC day (`YYYY-MM-DD`). */
export interface AttemptDay {
  day: string;
  uses: number;
  accounts: number;
}

const id = (v: unknown) => String(v);

const emailDomainBlock = (r: {
  id: unknown;
  domain: string;
  allow_with_approval: boolean | number;
  created_at: string;
}): EmailDomainBlock => ({
  id: id(r.id),
  domain: r.domain,
  allowWithApproval: Boolean(r.allow_with_approval),
  createdAt: r.created_at,
});

const canonicalBlock = (r: {
  id: unknown;
  canonical_email_hash: string;
  reference_account_id: unknown;
  created_at: string;
}): CanonicalEmailBlock => ({
  id: id(r.id),
  canonicalEmailHash: r.canonical_email_hash,
  referenceAccountId: r.reference_account_id === null ? null : id(r.reference_account_id),
  createdAt: r.created_at,
});

const ipBlock = (r: {
  id: unknown;
  ip: string;
  severity: string;
  comment: string;
  expires_at: string | null;
  created_at: string;
}): IpBlock => ({
  id: id(r.id),
  ip: r.ip,
  severity: r.severity as IpBlockSeverity,
  comment: r.comment,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

/** All SQL on the sign-up and access blocks: e-mail domains, canonical e-mail hashes, IP ranges. */
export class SignUpBlocksRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  // E-mail domain blocks.

  async emailDomainPage(window: IdWindow): Promise<EmailDomainBlock[]> {
    const q = applyWindow(this.#db.selectFrom("email_domain_blocks").selectAll(), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(emailDomainBlock));
  }

  async emailDomainAll(): Promise<EmailDomainBlock[]> {
    const rows = await this.#db.selectFrom("email_domain_blocks").selectAll().orderBy("domain").execute();
    return rows.map(emailDomainBlock);
  }

  async emailDomainById(blockId: string): Promise<EmailDomainBlock | undefined> {
    const r = await this.#db.selectFrom("email_domain_blocks").selectAll().where("id", "=", blockId).executeTakeFirst();
    return r && emailDomainBlock(r);
  }

  async emailDomainByDomain(domain: string): Promise<EmailDomainBlock | undefined> {
    const r = await this.#db
      .selectFrom("email_domain_blocks")
      .selectAll()
      .where("domain", "=", domain)
      .executeTakeFirst();
    return r && emailDomainBlock(r);
  }

  /** The blocks of any of `domains` (exact names). */
  async emailDomainsMatching(domains: string[]): Promise<EmailDomainBlock[]> {
    if (domains.length === 0) return [];
    const rows = await this.#db.selectFrom("email_domain_blocks").selectAll().where("domain", "in", domains).execute();
    return rows.map(emailDomainBlock);
  }

  async insertEmailDomain(block: EmailDomainBlock, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("email_domain_blocks")
      .values({
        id: block.id,
        domain: block.domain,
        allow_with_approval: block.allowWithApproval,
        created_at: block.createdAt,
        updated_at: block.createdAt,
      })
      .execute();
  }

  async deleteEmailDomain(blockId: string, db: Kysely<DB> = this.#db): Promise<boolean> {
    await db.deleteFrom("email_domain_block_attempts").where("email_domain_block_id", "=", blockId).execute();
    const r = await db.deleteFrom("email_domain_blocks").where("id", "=", blockId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async recordAttempts(blockIds: string[], ip: string, at: Date): Promise<void> {
    if (blockIds.length === 0) return;
    const iso = at.toISOString();
    await this.#db
      .insertInto("email_domain_block_attempts")
      .values(blockIds.map((b) => ({ email_domain_block_id: b, day: iso.slice(0, 10), ip, created_at: iso })))
      .execute();
  }

  /** Attempts per day for the blocks `blockIds`, from the day `since` (`YYYY-MM-DD`) on. */
  async attemptDays(blockIds: string[], since: string): Promise<Map<string, AttemptDay[]>> {
    const out = new Map<string, AttemptDay[]>();
    if (blockIds.length === 0) return out;
    const rows = await this.#db
      .selectFrom("email_domain_block_attempts")
      .select((eb) => [
        "email_domain_block_id",
        "day",
        eb.fn.countAll<number | string>().as("uses"),
        eb.fn.count<number | string>("ip").distinct().as("accounts"),
      ])
      .where("email_domain_block_id", "in", blockIds)
      .where("day", ">=", since)
      .groupBy(["email_domain_block_id", "day"])
      .execute();
    for (const r of rows) {
      const key = id(r.email_domain_block_id);
      const days = out.get(key) ?? [];
      days.push({ day: r.day, uses: Number(r.uses), accounts: Number(r.accounts) });
      out.set(key, days);
    }
    return out;
  }

  // Canonical e-mail blocks.

  async canonicalPage(window: IdWindow): Promise<CanonicalEmailBlock[]> {
    const q = applyWindow(this.#db.selectFrom("canonical_email_blocks").selectAll(), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(canonicalBlock));
  }

  async canonicalAll(): Promise<CanonicalEmailBlock[]> {
    const rows = await this.#db.selectFrom("canonical_email_blocks").selectAll().orderBy("id").execute();
    return rows.map(canonicalBlock);
  }

  async canonicalById(blockId: string): Promise<CanonicalEmailBlock | undefined> {
    const r = await this.#db
      .selectFrom("canonical_email_blocks")
      .selectAll()
      .where("id", "=", blockId)
      .executeTakeFirst();
    return r && canonicalBlock(r);
  }

  async canonicalByHash(hash: string): Promise<CanonicalEmailBlock[]> {
    const rows = await this.#db
      .selectFrom("canonical_email_blocks")
      .selectAll()
      .where("canonical_email_hash", "=", hash)
      .execute();
    return rows.map(canonicalBlock);
  }

  async insertCanonical(block: CanonicalEmailBlock, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("canonical_email_blocks")
      .values({
        id: block.id,
        canonical_email_hash: block.canonicalEmailHash,
        reference_account_id: block.referenceAccountId,
        created_at: block.createdAt,
        updated_at: block.createdAt,
      })
      .execute();
  }

  async deleteCanonical(blockId: string, db: Kysely<DB> = this.#db): Promise<boolean> {
    const r = await db.deleteFrom("canonical_email_blocks").where("id", "=", blockId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  // IP blocks.

  async ipPage(window: IdWindow): Promise<IpBlock[]> {
    const q = applyWindow(this.#db.selectFrom("ip_blocks").selectAll(), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(ipBlock));
  }

  /** Every block not expired at `now` (ISO). */
  async ipActive(now: string): Promise<IpBlock[]> {
    const rows = await this.#db
      .selectFrom("ip_blocks")
      .selectAll()
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
      .orderBy("id")
      .execute();
    return rows.map(ipBlock);
  }

  async ipById(blockId: string): Promise<IpBlock | undefined> {
    const r = await this.#db.selectFrom("ip_blocks").selectAll().where("id", "=", blockId).executeTakeFirst();
    return r && ipBlock(r);
  }

  async ipByRange(ip: string): Promise<IpBlock | undefined> {
    const r = await this.#db.selectFrom("ip_blocks").selectAll().where("ip", "=", ip).executeTakeFirst();
    return r && ipBlock(r);
  }

  async insertIp(block: IpBlock, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("ip_blocks")
      .values({
        id: block.id,
        ip: block.ip,
        severity: block.severity,
        comment: block.comment,
        expires_at: block.expiresAt,
        created_at: block.createdAt,
        updated_at: block.createdAt,
      })
      .execute();
  }

  async updateIp(block: IpBlock, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .updateTable("ip_blocks")
      .set({
        ip: block.ip,
        severity: block.severity,
        comment: block.comment,
        expires_at: block.expiresAt,
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", block.id)
      .execute();
  }

  async deleteIp(blockId: string, db: Kysely<DB> = this.#db): Promise<boolean> {
    const r = await db.deleteFrom("ip_blocks").where("id", "=", blockId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Removes the blocks that expired before `now` (ISO); answers how many. */
  async pruneExpiredIp(now: string): Promise<number> {
    const r = await this.#db.deleteFrom("ip_blocks").where("expires_at", "<=", now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
