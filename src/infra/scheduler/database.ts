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
}
