import { Worker } from "node:worker_threads";

/**
 * Checkpoints SQLite's write-ahead log from a thread of its own. Left to SQLite, the checkpoint
 * runs inside whichever statement commits once the log passes 1,000 pages, on the main thread
 * (node:sqlite is synchronous): that statement then copies megabytes back into the database file
 * and syncs it, and every request waits (measured: statements of 100-150 ms during a fan-out,
 * the posting p99 with them). A passive checkpoint on another connection blocks neither readers
 * nor writers; the main connection only appends to the log.
 *
 * While nothing is written, the wait between checkpoints doubles up to eight times the interval
 * (1.6 s): waking five times a second to find nothing to copy cost an idle server about 1.8 ms of
 * CPU a second (the thread's wake and the checkpoint's file locks), a third of all its idle work.
 * The first checkpoint that copies frames brings the interval back.
 */
const SCRIPT = `
const { parentPort, workerData } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
const db = new DatabaseSync(workerData.path);
db.exec("PRAGMA busy_timeout = 1000");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
let seen = -1;
// True when the log holds nothing new since the last step (all of it copied back already).
const step = () => {
  try {
    const r = checkpoint.get();
    const idle = r.busy === 0 && r.log === seen && r.checkpointed === r.log;
    seen = r.log;
    return idle;
  } catch { return false; }
};
let wait = workerData.intervalMs;
let timer;
const loop = () => {
  wait = step() ? Math.min(wait * 2, workerData.intervalMs * 8) : workerData.intervalMs;
  timer = setTimeout(loop, wait);
};
timer = setTimeout(loop, wait);
parentPort.on("message", () => {
  clearTimeout(timer);
  step();
  db.close();
  parentPort.postMessage("stopped");
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Checkpoints the database at `path` every `intervalMs` (less often while idle) until stopped. */
export function startCheckpointer(path: string, intervalMs = 200): Checkpointer {
  const worker = new Worker(SCRIPT, {
    eval: true,
    workerData: { path, intervalMs },
    // A small thread: it runs one prepared statement.
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2, stackSizeMb: 1 },
  });
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once("message", done);
        worker.once("exit", done);
        worker.once("error", done);
        worker.postMessage("stop");
      }),
  };
}
