import type { AppContext } from "../../context.ts";
import { serversNotReached } from "../../services/federation/availability.ts";
import type { Output } from "../output.ts";

/** The first line of an error, without tabs, so each job stays one line. */
const oneLine = (s: string | null) => (s ?? "").split("\n")[0]?.replaceAll("\t", " ") ?? "";

/**
 * The queue's state: counts by job name and state, the oldest waiting job, failing jobs; then, if
 * any, the servers deliveries cannot reach (unavailable: skipped; failing: days of failures).
 */
export async function jobsList(ctx: AppContext, io: Output): Promise<void> {
  const state = await ctx.queue.state();
  await io.out(["name", "state", "count"].join("\t"));
  for (const c of state.counts) await io.out([c.name, c.state, String(c.count)].join("\t"));
  await io.out("");
  const o = state.oldestWaiting;
  if (o) {
    const waited = Math.max(0, Math.round((Date.now() - o.runAt.getTime()) / 1000));
    await io.out(["oldest waiting", o.id, o.name, o.runAt.toISOString(), `${waited}s`].join("\t"));
  } else {
    await io.out(["oldest waiting", "none"].join("\t"));
  }
  await io.out("");
  await io.out(["id", "name", "state", "attempts", "run at", "last error"].join("\t"));
  for (const f of state.failing) {
    const attempts = `${f.attempts}/${f.maxAttempts}`;
    await io.out([f.id, f.name, f.state, attempts, f.runAt.toISOString(), oneLine(f.lastError)].join("\t"));
  }
  const servers = await serversNotReached(ctx);
  if (servers.length === 0) return;
  await io.out("");
  await io.out(["server", "delivery", "failure days", "since"].join("\t"));
  for (const h of servers) {
    const state = h.unavailableSince ? "unavailable" : "failing";
    await io.out([h.domain, state, String(h.failureDays), h.unavailableSince ?? h.lastFailureAt ?? ""].join("\t"));
  }
}
