import type { SchedulerLeasesRepository } from "../../db/repositories/scheduler-leases.ts";
import type { LeaseStore } from "./interface.ts";

const iso = (ms: number) => new Date(ms).toISOString();

/** Leases in the `scheduler_leases` table (SQLite or PostgreSQL). */
export class DatabaseLeaseStore implements LeaseStore {
  readonly #repo: SchedulerLeasesRepository;
  constructor(repo: SchedulerLeasesRepository) {
    this.#repo = repo;
  }
  ensure(name: string): Promise<void> {
    return this.#repo.ensure(name, iso(Date.now()));
  }
  acquire(name: string, holder: string, intervalMs: number, holdMs: number): Promise<boolean> {
    const now = Date.now();
    return this.#repo.acquire(name, holder, iso(now), iso(now + intervalMs), iso(now + holdMs));
  }
  makeDue(name: string): Promise<void> {
    return this.#repo.makeDue(name, iso(Date.now()));
  }
  release(name: string, holder: string): Promise<void> {
    return this.#repo.release(name, holder);
  }
  async takeableAt(names: readonly string[]): Promise<Map<string, number>> {
    const wanted = new Set(names);
    const at = new Map<string, number>();
    for (const r of await this.#repo.all()) {
      if (!wanted.has(r.name)) continue;
      const held = r.lockedUntil === null ? 0 : Date.parse(r.lockedUntil);
      at.set(r.name, Math.max(Date.parse(r.nextRunAt), held));
    }
    return at;
  }
}
