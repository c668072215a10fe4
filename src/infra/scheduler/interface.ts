/**
 * Who runs each periodic task: with several processes, one of them per due time. A lease is
 * held until the task has run (or `holdMs` has passed, when its holder died).
 */
export interface LeaseStore {
  /** Records the task; a new one is due at once. */
  ensure(name: string): Promise<void>;
  /** True when this holder runs the task now; it is next due `intervalMs` from now. */
  acquire(name: string, holder: string, intervalMs: number, holdMs: number): Promise<boolean>;
  release(name: string, holder: string): Promise<void>;
  /** Makes the task due now: the next tick of some scheduler runs it. */
  makeDue(name: string): Promise<void>;
  /**
   * When each task can next be taken (ms since the epoch): once it is due and its hold, if any,
   * has ended. A task missing from the map was never recorded (`ensure` it). Reads only.
   */
  takeableAt(names: readonly string[]): Promise<Map<string, number>>;
}
