import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { StoreJobQueue } from "../../src/infra/queue/runner.ts";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

describe("gannet jobs list", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  it("shows an empty queue", async () => {
    const out = await gannetOk(inst, "jobs", "list");
    assert.equal(out, "name\tstate\tcount\n\noldest waiting\tnone\n\nid\tname\tstate\tattempts\trun at\tlast error\n");
  });

  it("counts jobs by name and state, and shows the oldest waiting and the failing ones", async () => {
    const ctx = await inst.openContext();
    let failedId: string | undefined;
    let oldestId: string | undefined;
    try {
      oldestId = await ctx.queue.enqueue("mail.send", { to: "a" }, { runAt: new Date(Date.now() - 60_000) });
      await ctx.queue.enqueue("mail.send", { to: "b" });
      await ctx.queue.enqueue("feeds.fan-out", {}, { runAt: new Date(Date.now() + 3600_000) });
      failedId = await ctx.queue.enqueue("push.deliver", {}, { attempts: 1 });
      // A worker that takes the job and gives up on it.
      const store = (ctx.queue as StoreJobQueue).store;
      const [job] = await store.claim("test-worker", ["push.deliver"], 1, Date.now(), Date.now() + 60_000);
      assert.equal(job?.id, failedId);
      await store.kill("test-worker", failedId as string, "Error: gone\n    at somewhere");
    } finally {
      await ctx.close();
    }
    const out = await gannetOk(inst, "jobs", "list");
    const [counts, oldest, failing] = out.trimEnd().split("\n\n");
    assert.equal(counts, "name\tstate\tcount\nfeeds.fan-out\tdelayed\t1\nmail.send\twaiting\t2\npush.deliver\tdead\t1");
    const age = new RegExp(`^oldest waiting\\t${oldestId}\\tmail\\.send\\t\\S+Z\\t(\\d+)s$`).exec(oldest ?? "");
    // Enqueued a minute in the past; however long the command took to start, the age is at least that.
    assert.ok(age && Number(age[1]) >= 59 && Number(age[1]) < 600, oldest);
    const lines = (failing ?? "").split("\n");
    assert.equal(lines.length, 2);
    assert.match(lines[1] ?? "", new RegExp(`^${failedId}\\tpush\\.deliver\\tdead\\t1/1\\t\\S+\\tError: gone$`));
  });

  it("refuses arguments with exit 2", async () => {
    const r = await gannet(inst, "jobs", "list", "extra");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unexpected argument "extra"/);
    const help = await gannetOk(inst, "help", "jobs", "list");
    assert.match(help, /^Usage: gannet jobs list/);
  });
});
