import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DELIVERY_ATTEMPTS, FEDERATION_JOBS, JobMessageQueue } from "../../src/federation/queue.ts";
import type { JobQueue, JobToEnqueue } from "../../src/infra/queue/interface.ts";

describe("Fedify's messages on the job queue", () => {
  it("gives deliveries 17 attempts (the first and Mastodon's 16 retries), fan-outs the default", async () => {
    const queued: JobToEnqueue[] = [];
    const queue = {
      enqueueMany: async (jobs: JobToEnqueue[]) => {
        queued.push(...jobs);
        return jobs.map((_, i) => String(i));
      },
    } as unknown as JobQueue;
    const q = new JobMessageQueue(queue);
    await q.enqueue({ type: "outbox", inbox: "https://remote.example/inbox" });
    await q.enqueue({ type: "fanout" });
    assert.equal(DELIVERY_ATTEMPTS, 17);
    assert.deepEqual(
      queued.map((j) => [j.name, j.options?.attempts]),
      [
        [FEDERATION_JOBS.outbox, 17],
        [FEDERATION_JOBS.fanout, undefined],
      ],
    );
  });
});
