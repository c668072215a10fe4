/**
 * Pacing of the trends scoring job. On SQLite every statement runs on the main thread, and a
 * chain of awaited statements never lets a waiting request in (each resolves at once, so the
 * chain goes on in microtasks), however small the slices the job reads. So after each read the
 * job yields and rests as long as it held the thread since its last rest (at most 200 ms), as
 * the domain purge does: requests are answered between reads and the job never takes more than
 * about half the thread. On PostgreSQL a statement waits for the server off the thread, so the
 * job only yields there, without resting.
 */
export class Pacer {
  #since = performance.now();
  readonly #rests: boolean;

  /** `holdsThread`: statements run on this thread (SQLite). */
  constructor(holdsThread: boolean) {
    this.#rests = holdsThread;
  }

  /** Yields to waiting requests, resting as long as the work since the last rest took. */
  async rest(): Promise<void> {
    const busyMs = this.#rests ? performance.now() - this.#since : 0;
    await new Promise<void>((resolve) =>
      busyMs >= 1 ? setTimeout(resolve, Math.min(busyMs, 200)) : setImmediate(resolve),
    );
    this.#since = performance.now();
  }

  /** `work`'s result, after a rest. */
  async after<T>(work: Promise<T>): Promise<T> {
    const result = await work;
    await this.rest();
    return result;
  }
}
