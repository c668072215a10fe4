import { sleep } from "./children.ts";
import type { BenchDatabase } from "./database.ts";
import { send } from "./http.ts";

export const FAN_OUT_JOB = "feeds.fan-out";

export interface FanOutSample {
  /** The POST's answer time (ms). */
  postMs: number;
  /** From the POST's answer until every follower's feed held the status (ms); NaN when it never did. */
  delayMs: number;
}

/** Waits until no job of `name` is pending (at most `limitMs`); returns the milliseconds waited. */
export async function waitForJobs(db: BenchDatabase, name: string, limitMs: number): Promise<number> {
  const t0 = performance.now();
  while ((await db.pendingJobs(name)) > 0) {
    if (performance.now() - t0 > limitMs) return Number.NaN;
    await sleep(5);
  }
  return performance.now() - t0;
}

/**
 * Posts `samples` statuses as the author, one at a time on an otherwise idle server, and polls the
 * database every 2 ms until `followers` home feeds (the author's own left aside) hold each one.
 */
export async function measureFanOut(opts: {
  origin: string;
  token: string;
  authorId: string;
  followers: number;
  db: BenchDatabase;
  samples: number;
  limitMs: number;
}): Promise<FanOutSample[]> {
  const out: FanOutSample[] = [];
  for (let i = 0; i < opts.samples; i++) {
    await waitForJobs(opts.db, FAN_OUT_JOB, opts.limitMs);
    await sleep(200);
    const t0 = performance.now();
    const answer = await send(
      `${opts.origin}/api/v1/statuses`,
      "POST",
      { Authorization: `Bearer ${opts.token}` },
      JSON.stringify({ status: `Fan-out probe ${i + 1} #bench`, visibility: "public" }),
    );
    const answered = performance.now();
    if (answer.status !== 200) throw new Error(`POST /api/v1/statuses answered ${answer.status}: ${answer.body}`);
    const id = String(JSON.parse(answer.body.toString("utf8")).id);
    let delayMs = Number.NaN;
    while (performance.now() - answered < opts.limitMs) {
      if ((await opts.db.feedCount(id, opts.authorId)) >= opts.followers) {
        delayMs = performance.now() - answered;
        break;
      }
      await sleep(2);
    }
    out.push({ postMs: answered - t0, delayMs });
  }
  return out;
}
