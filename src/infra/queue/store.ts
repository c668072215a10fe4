import type { QueueState } from "./interface.ts";

export interface NewJob {
  id: string;
  name: string;
  /** JSON. */
  payload: string;
  runAt: number;
  maxAttempts: number;
  dedupeKey: string | null;
  createdAt: number;
}

export interface ClaimedJob {
  id: string;
  name: string;
  /** JSON. */
  payload: string;
  /** Including the run about to start. */
  attempts: number;
  maxAttempts: number;
}

/**
 * Where jobs are kept: the part that differs between the database and Redis queues. Every
 * method that changes a taken job checks that `workerId` still holds it. Times are ms.
 */
export interface JobStore {
  insert(jobs: NewJob[]): Promise<string[]>;
  /**
   * Up to `limit` due jobs named in `names` (those this worker has handlers for), or such jobs
   * whose lock expired, locked for this worker until `lockedUntil`.
   */
  claim(workerId: string, names: string[], limit: number, now: number, lockedUntil: number): Promise<ClaimedJob[]>;
  extendLocks(workerId: string, ids: string[], lockedUntil: number): Promise<void>;
  /** Forgets the finished jobs `ids` (those `workerId` still holds), in one round trip. */
  complete(workerId: string, ids: string[]): Promise<void>;
  retry(workerId: string, id: string, runAt: number, error: string): Promise<void>;
  kill(workerId: string, id: string, error: string): Promise<void>;
  state(now: number, failingLimit: number): Promise<QueueState>;
  /** Forgets dead jobs that died before `before`; returns how many. */
  purgeDead(before: number): Promise<number>;
}
