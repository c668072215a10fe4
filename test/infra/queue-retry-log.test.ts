import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { configure, defaultTextFormatter, type LogRecord, reset } from "@logtape/logtape";
import { JobsRepository } from "../../src/db/repositories/jobs.ts";
import { DatabaseJobQueue } from "../../src/infra/queue/database.ts";
import { IdGenerator } from "../../src/lib/ids.ts";
import { waitFor } from "./queue-contract.ts";
import { openTestDatabase, testContext } from "./test-database.ts";

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
    const t = await openTestDatabase();
    const queue = new DatabaseJobQueue(new JobsRepository(t.database.db, t.database.dialect), {
      context: () => testContext,
      ids: new IdGenerator(),
      pollIntervalMs: 20,
      backoffBaseMs: 20,
      backoffMaxMs: 40,
    });
    let runs = 0;
    queue.register("flaky", async () => {
      runs++;
      throw new Error("peer.example refused the connection");
    });
    try {
      queue.start();
      await queue.enqueue("flaky", {}, { attempts: 3 });
      await waitFor(() => runs >= 3, 10_000, "three attempts");
      await waitFor(async () => (await queue.state()).counts.some((c) => c.state === "dead"), 5000, "the job to die");
    } finally {
      await queue.stop();
      await t.close();
    }
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
    const t = await openTestDatabase();
    const queue = new DatabaseJobQueue(new JobsRepository(t.database.db, t.database.dialect), {
      context: () => testContext,
      ids: new IdGenerator(),
      pollIntervalMs: 20,
      backoffBaseMs: 20,
      backoffMaxMs: 40,
    });
    let runs = 0;
    queue.register("deliver", async () => {
      runs++;
      throw new Error(
        "Failed to send activity a to https://peer.example/inbox (500 Internal Server Error):\n<html>oops</html>",
      );
    });
    try {
      queue.start();
      await queue.enqueue("deliver", {}, { attempts: 2 });
      await waitFor(() => runs >= 2, 10_000, "two attempts");
      await waitFor(async () => (await queue.state()).counts.some((c) => c.state === "dead"), 5000, "the job to die");
    } finally {
      await queue.stop();
      await t.close();
    }
    const retries = records.filter((r) => r.level === "info" && String(r.rawMessage).includes("retrying"));
    assert.equal(retries.length, 1);
    const line = defaultTextFormatter(retries[0]).trimEnd();
    assert.doesNotMatch(line, /\n|<html>/, line);
    assert.match(line, /500 Internal Server Error/);
    const debug = records.filter((r) => r.level === "debug");
    assert.match(String(debug[0]?.properties.stack), /<html>oops<\/html>/);
  });
});
