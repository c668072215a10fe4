import { setTimeout as sleep } from "node:timers/promises";

/**
 * Rate limits count in fixed windows aligned to the clock (as Rack::Attack's): requests that
 * straddle a window's end are counted afresh. A test that needs its requests counted together
 * calls this first; when less than `needMs` is left of the current window it waits for the next.
 */
export async function inOneWindow(periodMs: number, needMs = 15_000): Promise<void> {
  const left = periodMs - (Date.now() % periodMs);
  if (left < needMs) await sleep(left + 5);
}
