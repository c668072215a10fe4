import type { Kysely } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

export type DomainBlockSeverity = "noop" | "silence" | "suspend";

/** An instance-level domain block (moderation), as Mastodon's DomainBlock. */
export interface InstanceDomainBlock {
  id: string;
  domain: string;
  severity: DomainBlockSeverity;
  rejectMedia: boolean;
  rejectReports: boolean;
  privateComment: string | null;
  publicComment: string | null;
  obfuscate: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What a moderator sets on a domain block (the rest is the row's own). */
export type DomainBlockInput = Omit<InstanceDomainBlock, "id" | "createdAt" | "updatedAt">;

/**
 * The domains a block on any of them covers for `domain` (`a.b.example:8443`): the host with its
 * port, then the host and each parent domain, most specific first (Mastodon's DomainBlock.rule_for).
 */
export function coveringDomains(domain: string): string[] {
  const lower = domain.toLowerCase();
  const host = lower.replace(/:\d+$/, "");
  const out = lower === host ? [] : [lower];
  const labels = host.split(".");
  for (let i = 0; i < labels.length; i++) out.push(labels.slice(i).join("."));
  return out;
}

/** A domain allowed in limited-federation mode (Mastodon's DomainAllow). */
export interface InstanceDomainAllow {
  id: string;
  domain: string;
  createdAt: string;
}

/** What a block changes in place (its domain never changes). */
export type DomainBlockPatch = Partial<Omit<DomainBlockInput, "domain">>;

/** Whether a domain may federate with this server, and the block that applies to it if any. */
export interface DomainPolicy {
  allowed: boolean;
  rule: InstanceDomainBlock | undefined;
}

/** Domains whose policy is kept (beyond it, the cache starts over). */
const POLICY_CACHE_SIZE = 10_000;

/**
 * All SQL on `domain_blocks` and `domain_allows` (migration 0026), and the federation policy they
 * make: whether activities from a domain are accepted and whether anything is delivered to it.
 */
export class InstanceDomainBlocksRepository {
  readonly #db: Kysely<DB>;
  readonly #limitedFederation: boolean;
  readonly #stamp: () => number | undefined;
  /** `policyFor` by domain while the stamp stays the same (every inbox activity asks twice or more). */
  readonly #policies = new Map<string, Readonly<DomainPolicy>>();
  #policiesStamp: number | undefined;

  /**
   * `stamp` grows whenever the blocks or allows may have changed (`Database.domainPolicyStamp`);
   * while it returns undefined (PostgreSQL), nothing is cached.
   */
  constructor(db: Kysely<DB>, opts: { limitedFederation: boolean; stamp?: () => number | undefined }) {
    this.#db = db;
    this.#limitedFederation = opts.limitedFederation;
    this.#stamp = opts.stamp ?? (() => undefined);
  }

  /** The most specific block covering `domain` (a parent domain's block covers its subdomains). */
  async ruleFor(domain: string): Promise<InstanceDomainBlock | undefined> {
    const candidates = coveringDomains(domain);
    const rows = await this.#db.selectFrom("domain_blocks").selectAll().where("domain", "in", candidates).execute();
    if (rows.length === 0) return undefined;
    const best = rows.sort((a, b) => candidates.indexOf(a.domain) - candidates.indexOf(b.domain))[0];
    return toBlock(best);
  }

  /** Whether `domain` is allowed in limited-federation mode (an allow of a parent domain counts). */
  async isAllowed(domain: string): Promise<boolean> {
    const r = await this.#db
      .selectFrom("domain_allows")
      .select("id")
      .where("domain", "in", coveringDomains(domain))
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * Whether Gannet federates with `domain` at all: not suspended and, in limited-federation mode,
   * allowed. Inbox activities from a domain failing this are refused; delivery to it is skipped.
   */
  async isDeliveryAllowed(domain: string): Promise<boolean> {
    return (await this.policyFor(domain)).allowed;
  }

  /**
   * `isDeliveryAllowed` and `ruleFor` in one go (a stored post or account needs both). Kept in
   * memory while the blocks and allows are unchanged (on SQLite, whose change stamp sees every
   * process's writes); read each time on PostgreSQL.
   */
  async policyFor(domain: string): Promise<Readonly<DomainPolicy>> {
    const stamp = this.#stamp();
    if (stamp !== undefined) {
      if (stamp !== this.#policiesStamp) {
        this.#policies.clear();
        this.#policiesStamp = stamp;
      }
      const known = this.#policies.get(domain);
      if (known) return known;
    }
    const rule = await this.ruleFor(domain);
    const allowed = rule?.severity !== "suspend" && (!this.#limitedFederation || (await this.isAllowed(domain)));
    const policy = Object.freeze({ allowed, rule: rule && Object.freeze(rule) });
    // Kept only if nothing changed while it was read (a change meanwhile moved the stamp on).
    if (stamp !== undefined && stamp === this.#policiesStamp && this.#stamp() === stamp) {
      if (this.#policies.size >= POLICY_CACHE_SIZE) this.#policies.clear();
      this.#policies.set(domain, policy);
    }
    return policy;
  }

  /** Adds the block of `domain` (none may exist); the stored row. */
  async insert(
    input: DomainBlockInput,
    newId: string,
    now: string,
    db: Kysely<DB> = this.#db,
  ): Promise<InstanceDomainBlock> {
    const row = await db
      .insertInto("domain_blocks")
      .values({
        id: newId,
        domain: input.domain,
        severity: input.severity,
        reject_media: input.rejectMedia,
        reject_reports: input.rejectReports,
        private_comment: input.privateComment,
        public_comment: input.publicComment,
        obfuscate: input.obfuscate,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toBlock(row);
  }

  /** Adds or replaces the block of `domain` (row only, nothing applied: tests set policies with it). */
  async upsert(input: DomainBlockInput, newId: string, now: string): Promise<InstanceDomainBlock> {
    const existing = await this.getByDomain(input.domain);
    if (!existing) return this.insert(input, newId, now);
    const { domain: _domain, ...patch } = input;
    return this.update(existing.id, patch, now);
  }

  /** Removes the block of exactly `domain` (row only); false when there was none. */
  async delete(domain: string): Promise<boolean> {
    const r = await this.#db.deleteFrom("domain_blocks").where("domain", "=", domain).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Changes a block in place (its `created_at` stays: it marks the accounts the block limited). */
  async update(
    id: string,
    patch: DomainBlockPatch,
    now: string,
    db: Kysely<DB> = this.#db,
  ): Promise<InstanceDomainBlock> {
    const values: Record<string, unknown> = { updated_at: now };
    if (patch.severity !== undefined) values.severity = patch.severity;
    if (patch.rejectMedia !== undefined) values.reject_media = patch.rejectMedia;
    if (patch.rejectReports !== undefined) values.reject_reports = patch.rejectReports;
    if (patch.privateComment !== undefined) values.private_comment = patch.privateComment;
    if (patch.publicComment !== undefined) values.public_comment = patch.publicComment;
    if (patch.obfuscate !== undefined) values.obfuscate = patch.obfuscate;
    const row = await db
      .updateTable("domain_blocks")
      .set(values)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toBlock(row);
  }

  async getById(id: string, db: Kysely<DB> = this.#db): Promise<InstanceDomainBlock | undefined> {
    const row = await db.selectFrom("domain_blocks").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toBlock(row);
  }

  async getByDomain(domain: string, db: Kysely<DB> = this.#db): Promise<InstanceDomainBlock | undefined> {
    const row = await db.selectFrom("domain_blocks").selectAll().where("domain", "=", domain).executeTakeFirst();
    return row && toBlock(row);
  }

  /** Removes one block; false when it was gone already. */
  async deleteById(id: string, db: Kysely<DB> = this.#db): Promise<boolean> {
    const r = await db.deleteFrom("domain_blocks").where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** All blocks by domain (the `gannet domains list` order). */
  async list(): Promise<InstanceDomainBlock[]> {
    const rows = await this.#db.selectFrom("domain_blocks").selectAll().orderBy("domain").execute();
    return rows.map(toBlock);
  }

  /** One page of blocks, newest first (the admin API). */
  async page(window: IdWindow): Promise<InstanceDomainBlock[]> {
    const q = applyWindow(this.#db.selectFrom("domain_blocks").selectAll(), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toBlock));
  }

  /** Adds an allow of `domain` unless there is one; the allow of that domain either way. */
  async allow(
    domain: string,
    newId: string,
    now: string,
    db: Kysely<DB> = this.#db,
  ): Promise<{ allow: InstanceDomainAllow; created: boolean }> {
    const r = await db
      .insertInto("domain_allows")
      .values({ id: newId, domain, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column("domain").doNothing())
      .executeTakeFirst();
    const created = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    const row = await db.selectFrom("domain_allows").selectAll().where("domain", "=", domain).executeTakeFirstOrThrow();
    return { allow: toAllow(row), created };
  }

  async getAllowById(id: string, db: Kysely<DB> = this.#db): Promise<InstanceDomainAllow | undefined> {
    const row = await db.selectFrom("domain_allows").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toAllow(row);
  }

  async getAllowByDomain(domain: string, db: Kysely<DB> = this.#db): Promise<InstanceDomainAllow | undefined> {
    const row = await db.selectFrom("domain_allows").selectAll().where("domain", "=", domain).executeTakeFirst();
    return row && toAllow(row);
  }

  async deleteAllowById(id: string, db: Kysely<DB> = this.#db): Promise<boolean> {
    const r = await db.deleteFrom("domain_allows").where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async listAllows(): Promise<string[]> {
    const rows = await this.#db.selectFrom("domain_allows").select("domain").orderBy("domain").execute();
    return rows.map((r) => r.domain);
  }

  /** One page of allows, newest first (the admin API). */
  async pageAllows(window: IdWindow): Promise<InstanceDomainAllow[]> {
    const q = applyWindow(this.#db.selectFrom("domain_allows").selectAll(), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toAllow));
  }

  /**
   * Applies a block's severity to the accounts known of the domain (and its subdomains) not
   * limited that way already: `silence` silences them, `suspend` suspends them (origin `local`).
   * As Mastodon, each is marked with the block's own `created_at` (`at`), which is how a later
   * change or removal of the block knows the accounts it limited. The number of accounts changed.
   */
  async applyToAccounts(
    domain: string,
    severity: DomainBlockSeverity,
    at: string,
    db: Kysely<DB> = this.#db,
  ): Promise<number> {
    if (severity === "noop") return 0;
    const column = severity === "suspend" ? "suspended_at" : "silenced_at";
    const patch = severity === "suspend" ? { suspended_at: at, suspension_origin: "local" } : { silenced_at: at };
    const r = await db
      .updateTable("accounts")
      .set(patch)
      .where(column, "is", null)
      .where((eb) => eb.or([eb("domain", "=", domain), eb("domain", "like", `%.${domain}`)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Undoes `applyToAccounts` for one severity: the domain's accounts silenced (or suspended) at
   * exactly the block's `created_at` (`at`) are restored. Accounts limited individually (another
   * time) stay as they are.
   */
  async liftFromAccounts(
    domain: string,
    severity: "silence" | "suspend",
    at: string,
    db: Kysely<DB> = this.#db,
  ): Promise<number> {
    const onDomain = (eb: any) => eb.or([eb("domain", "=", domain), eb("domain", "like", `%.${domain}`)]);
    const q =
      severity === "silence"
        ? db.updateTable("accounts").set({ silenced_at: null }).where("silenced_at", "=", at)
        : db
            .updateTable("accounts")
            .set({ suspended_at: null, suspension_origin: null })
            .where("suspended_at", "=", at)
            .where("suspension_origin", "=", "local");
    const r = await q.where(onDomain).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Ids of the accounts of `domain` (and its subdomains) after `afterId`, by id; with `suspendedAt`,
   * only those suspended at that time (by the block created then).
   */
  async accountIdsOf(domain: string, afterId: string, limit: number, suspendedAt?: string): Promise<string[]> {
    let q = this.#db
      .selectFrom("accounts")
      .select("id")
      .where((eb) => eb.or([eb("domain", "=", domain), eb("domain", "like", `%.${domain}`)]));
    if (suspendedAt !== undefined) q = q.where("suspended_at", "=", suspendedAt);
    const rows = await q.where("id", ">", afterId).orderBy("id").limit(limit).execute();
    return rows.map((r) => String(r.id));
  }
}

function toAllow(r: { id: string | number; domain: string; created_at: string }): InstanceDomainAllow {
  return { id: String(r.id), domain: r.domain, createdAt: r.created_at };
}

function toBlock(r: {
  id: string | number;
  domain: string;
  severity: string;
  reject_media: boolean | number;
  reject_reports: boolean | number;
  private_comment: string | null;
  public_comment: string | null;
  obfuscate: boolean | number;
  created_at: string;
  updated_at: string;
}): InstanceDomainBlock {
  return {
    id: String(r.id),
    domain: r.domain,
    severity: r.severity as DomainBlockSeverity,
    rejectMedia: Boolean(r.reject_media),
    rejectReports: Boolean(r.reject_reports),
    privateComment: r.private_comment,
    publicComment: r.public_comment,
    obfuscate: Boolean(r.obfuscate),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
