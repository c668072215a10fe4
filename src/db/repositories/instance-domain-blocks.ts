import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

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

  /** Adds or replaces the block of `domain`; the stored row. */
  async upsert(input: DomainBlockInput, newId: string, now: string): Promise<InstanceDomainBlock> {
    const values = {
      severity: input.severity,
      reject_media: input.rejectMedia,
      reject_reports: input.rejectReports,
      private_comment: input.privateComment,
      public_comment: input.publicComment,
      obfuscate: input.obfuscate,
      updated_at: now,
    };
    const row = await this.#db
      .insertInto("domain_blocks")
      .values({ id: newId, domain: input.domain, created_at: now, ...values })
      .onConflict((oc) => oc.column("domain").doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toBlock(row);
  }

  /** Removes the block of exactly `domain`; false when there was none. */
  async delete(domain: string): Promise<boolean> {
    const r = await this.#db.deleteFrom("domain_blocks").where("domain", "=", domain).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async list(): Promise<InstanceDomainBlock[]> {
    const rows = await this.#db.selectFrom("domain_blocks").selectAll().orderBy("domain").execute();
    return rows.map(toBlock);
  }

  async allow(domain: string, newId: string, now: string): Promise<boolean> {
    const r = await this.#db
      .insertInto("domain_allows")
      .values({ id: newId, domain, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column("domain").doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async disallow(domain: string): Promise<boolean> {
    const r = await this.#db.deleteFrom("domain_allows").where("domain", "=", domain).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async listAllows(): Promise<string[]> {
    const rows = await this.#db.selectFrom("domain_allows").select("domain").orderBy("domain").execute();
    return rows.map((r) => r.domain);
  }

  /**
   * Applies a block's severity to the accounts already known of the domain (and its subdomains):
   * `silence` silences them, `suspend` suspends them (origin `local`, as moderation does).
   */
  async applyToAccounts(domain: string, severity: DomainBlockSeverity, now: string): Promise<number> {
    if (severity === "noop") return 0;
    const column = severity === "suspend" ? "suspended_at" : "silenced_at";
    const patch = severity === "suspend" ? { suspended_at: now, suspension_origin: "local" } : { silenced_at: now };
    const r = await this.#db
      .updateTable("accounts")
      .set(patch)
      .where(column, "is", null)
      .where((eb) => eb.or([eb("domain", "=", domain), eb("domain", "like", `%.${domain}`)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Undoes `applyToAccounts` when a block is lifted: the domain's accounts are unsilenced, and
   * unsuspended unless their own server suspended them (moderation of single accounts comes with
   * the admin API; until then every silence or local suspension of a remote account is the block's).
   */
  async liftFromAccounts(domain: string): Promise<void> {
    await this.#db
      .updateTable("accounts")
      .set({ silenced_at: null })
      .where((eb) => eb.or([eb("domain", "=", domain), eb("domain", "like", `%.${domain}`)]))
      .execute();
    await this.#db
      .updateTable("accounts")
      .set({ suspended_at: null, suspension_origin: null })
      .where("suspension_origin", "=", "local")
      .where((eb) => eb.or([eb("domain", "=", domain), eb("domain", "like", `%.${domain}`)]))
      .execute();
  }
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
