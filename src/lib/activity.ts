import { channel } from "node:diagnostics_channel";

/**
 * Periodic tasks and jobs as they start and end, on the diagnostics channel `gannet:activity`:
 * `{ kind: "task" | "job", name, phase: "start" | "end", at }` (`at`: `performance.now()`).
 * Nothing listens in a normal run, and then it costs one check per task or job. The soak's
 * probe (bench/lib/soak-probe-preload.ts) listens, to name what ran when the event loop stalled.
 */
export const ACTIVITY_CHANNEL = "gannet:activity";
const activity = channel(ACTIVITY_CHANNEL);

export interface ActivityEvent {
  kind: "task" | "job";
  name: string;
  phase: "start" | "end";
  at: number;
}

/** Runs `fn`, telling the channel's listeners (if any) when it started and ended. */
export async function tracked<T>(kind: ActivityEvent["kind"], name: string, fn: () => Promise<T>): Promise<T> {
  if (!activity.hasSubscribers) return fn();
  activity.publish({ kind, name, phase: "start", at: performance.now() } satisfies ActivityEvent);
  try {
    return await fn();
  } finally {
    activity.publish({ kind, name, phase: "end", at: performance.now() } satisfies ActivityEvent);
  }
}
