import { threadId } from "node:worker_threads";

/**
 * One writer at a time among the SQLite connections of this process's threads (the main thread
 * and its inbox threads, src/inbox-threads/), waited for without blocking a thread's event
 * loop. Without it, a connection that finds another thread's write transaction open is made to
 * wait by SQLite's busy handler, which sleeps the whole thread (1, 2, 5, 10... up to 100 ms a
 * try): measured as the inbox threads' activities taking 3 times as long as on one thread.
 * Reads need no lock (WAL). The cell holds 0 when free, else the holder's threadId + 1, so that
 * a thread that dies holding it can be freed by its parent (`freeIfHeldBy`).
 */
let cell: Int32Array | undefined;

/** The lock's shared memory, to hand to each thread. */
export function newWriteLock(): SharedArrayBuffer {
  return new SharedArrayBuffer(4);
}

/** This thread's SQLite connections take `buffer`'s lock before they write. */
export function useWriteLock(buffer: SharedArrayBuffer): void {
  cell = new Int32Array(buffer);
}

/** Whether writes take the lock (inbox threads are on). */
export function writeLockInUse(): boolean {
  return cell !== undefined;
}

const me = threadId + 1;

/** Waits for the lock (at once when no lock is in use). */
export async function acquireWriteLock(): Promise<void> {
  const c = cell;
  if (c === undefined) return;
  for (;;) {
    const held = Atomics.compareExchange(c, 0, 0, me);
    if (held === 0) return;
    const wait = Atomics.waitAsync(c, 0, held, 1000);
    if (wait.async) await wait.value;
  }
}

export function releaseWriteLock(): void {
  const c = cell;
  if (c === undefined) return;
  if (Atomics.compareExchange(c, 0, me, 0) === me) Atomics.notify(c, 0, 1);
}

/** Frees the lock if the thread `id` held it (it exited). */
export function freeIfHeldBy(buffer: SharedArrayBuffer, id: number): void {
  const c = new Int32Array(buffer);
  if (Atomics.compareExchange(c, 0, id + 1, 0) === id + 1) Atomics.notify(c, 0, 1);
}
