import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ACTIVITY_JSON,
  DELIVERY_ATTEMPTS,
  FEDERATION_JOBS,
  fedifyMessage,
  JobMessageQueue,
} from "../../src/federation/queue.ts";
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

  it("serialises the activity and keys a fan-out shares once, the activity as the JSON text sent", async () => {
    const queued: JobToEnqueue[] = [];
    const queue = {
      enqueueMany: async (jobs: JobToEnqueue[]) => {
        queued.push(...jobs);
        return jobs.map((_, i) => String(i));
      },
    } as unknown as JobQueue;
    const q = new JobMessageQueue(queue);
    const activity = { "@context": "https://www.w3.org/ns/activitystreams", type: "Create", id: "https://x/1" };
    const keys = [{ keyId: "https://x/actor#main-key", privateKey: { kty: "RSA", n: "n", d: "d" } }];
    const messages = ["a", "b"].map((host) => ({
      type: "outbox",
      id: host,
      keys,
      activity,
      inbox: `https://${host}.example/inbox`,
      headers: {},
      orderingKey: undefined,
    }));
    await q.enqueueMany([...messages, { type: "fanout", activity }]);
    assert.equal(queued.length, 3);
    for (const [i, m] of messages.entries()) {
      const json = queued[i]?.payloadJson;
      assert.ok(json);
      const { activity: _, ...rest } = m;
      const parsed = JSON.parse(json);
      // The activity as the JSON text that is sent; the rest as it was.
      assert.deepEqual(parsed, { ...JSON.parse(JSON.stringify(rest)), [ACTIVITY_JSON]: JSON.stringify(activity) });
      assert.deepEqual(fedifyMessage(parsed), JSON.parse(JSON.stringify(m)));
    }
    // Other jobs are serialised by the queue as before.
    assert.equal(queued[2]?.payloadJson, undefined);
  });
});
