import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { configure, defaultTextFormatter, type LogRecord, reset } from "@logtape/logtape";
import { JobsRepository } from "../../src/db/repositories/jobs.ts";
import { DatabaseJobQueue } from "../../src/infra/queue/database.ts";
import { IdGenerator } from "../../src/lib/ids.ts";
import { waitFor } from "./queue-contract.ts";
import { openTestDatabase, testContext } from "./test-database.ts";

/**
 * Runs a job named `name` that always throws `error` on a fast-retrying queue until it dies after
 * `attempts` attempts; the log records are the test's.
 */
async function runUntilDead(name: string, error: string, attempts: number): Promise<void> {
  const t = await openTestDatabase();
  const queue = new DatabaseJobQueue(new JobsRepository(t.database.db, t.database.dialect), {
    context: () => testContext,
    ids: new IdGenerator(),
    pollIntervalMs: 20,
    backoffBaseMs: 20,
    backoffMaxMs: 40,
  });
  let runs = 0;
  queue.register(name, async () => {
    runs++;
    throw new Error(error);
  });
  try {
    queue.start();
    await queue.enqueue(name, {}, { attempts });
    await waitFor(() => runs >= attempts, 10_000, `${attempts} attempts`);
    await waitFor(async () => (await queue.state()).counts.some((c) => c.state === "dead"), 5000, "the job to die");
  } finally {
    await queue.stop();
    await t.close();
  }
}

describe("a failing job's retries in the log", () => {
  const records: LogRecord[] = [];
  before(async () => {
    await configure({
      sinks: { memory: (r) => records.push(r) },
      loggers: [
        { category: ["gannet", "jobs"], lowestLevel: "debug", sinks: ["memory"] },
        { category: ["logtape", "meta"], lowestLevel: "warning", sinks: ["memory"] },
      ],
    });
  });
  after(() => reset());

  it("says one line at info per retry (job, attempt, message), one at warning when it dies, and the stacks at debug", async () => {
    await runUntilDead("flaky", "peer.example refused the connection", 3);
    const retries = records.filter((r) => r.level === "info" && String(r.rawMessage).includes("retrying"));
    assert.equal(retries.length, 2, "attempts 1 and 2 are retried");
    for (const [i, r] of retries.entries()) {
      const line = defaultTextFormatter(r).trimEnd();
      assert.doesNotMatch(line, /\n/, line);
      assert.doesNotMatch(line, /\bat .*\.ts:\d+/, `no stack at info: ${line}`);
      assert.match(line, /flaky/);
      assert.match(line, new RegExp(`attempt ${i + 1} of 3`));
      assert.match(line, /peer\.example refused the connection/);
    }
    const stacks = records.filter((r) => r.level === "debug");
    assert.equal(stacks.length, 3, "every attempt's stack, the last one's too");
    for (const r of stacks) assert.match(String(r.properties.stack), /queue-retry-log\.test\.ts/);
    // The job's end is one line too (at warning): a peer down for days ends many deliveries.
    const dead = records.filter((r) => r.level === "warning");
    assert.equal(dead.length, 1);
    const line = defaultTextFormatter(dead[0]).trimEnd();
    assert.doesNotMatch(line, /\n/, line);
    assert.match(line, /flaky.*failed for good after 3 attempts: 'peer\.example refused the connection'/);
  });

  it("keeps the info line to the message's first line (a failed delivery's carries the response body)", async () => {
    records.length = 0;
    await runUntilDead(
      "deliver",
      "Failed to send activity a to https://peer.example/inbox (500 Internal Server Error):\n<html>oops</html>",
      2,
    );
    const retries = records.filter((r) => r.level === "info" && String(r.rawMessage).includes("retrying"));
    assert.equal(retries.length, 1);
    const line = defaultTextFormatter(retries[0]).trimEnd();
    assert.doesNotMatch(line, /\n|<html>/, line);
    assert.match(line, /500 Internal Server Error/);
    const debug = records.filter((r) => r.level === "debug");
    assert.match(String(debug[0]?.properties.stack), /<html>oops<\/html>/);
  });
});
