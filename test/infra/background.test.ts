import assert from "node:assert/strict";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { after, before, describe, it } from "node:test";
import { createScheduler } from "../../src/infra/scheduler/scheduler.ts";
import { ACTIVITY_CHANNEL, type ActivityEvent } from "../../src/lib/activity.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { waitFor } from "./queue-contract.ts";

describe("background roles in a test server", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it("runs jobs with the server's context", async () => {
    const seen: string[] = [];
    server.ctx.queue.register("test.echo", async (ctx, payload: { n: string }) => {
      assert.equal(ctx, server.ctx);
      seen.push(payload.n);
    });
    await server.ctx.queue.enqueue("test.echo", { n: "one" });
    await waitFor(() => seen.length === 1);
    assert.deepEqual(seen, ["one"]);
  });

  it("tells the activity channel when jobs and periodic tasks start and end (the soak's stall log)", async () => {
    const events: ActivityEvent[] = [];
    const listen = (m: unknown) => events.push(m as ActivityEvent);
    subscribe(ACTIVITY_CHANNEL, listen);
    try {
      server.ctx.queue.register("test.tracked", async () => {
        await new Promise((r) => setTimeout(r, 20));
        throw new Error("failed on purpose");
      });
      await server.ctx.queue.enqueue("test.tracked", {}, { attempts: 1 });
      await (await createScheduler(server.ctx)).runSoon("mutes.purge-expired");
      const of = (kind: string, name: string) =>
        events.filter((e) => e.kind === kind && e.name === name).map((e) => e.phase);
      await waitFor(
        () => of("job", "test.tracked").length === 2 && of("task", "mutes.purge-expired").length === 2,
        5000,
        "the events",
      );
      // A job that throws still ends.
      assert.deepEqual(of("job", "test.tracked"), ["start", "end"]);
      assert.deepEqual(of("task", "mutes.purge-expired"), ["start", "end"]);
      const [start, end] = events.filter((e) => e.name === "test.tracked");
      assert.ok((end?.at ?? 0) - (start?.at ?? 0) >= 15);
    } finally {
      unsubscribe(ACTIVITY_CHANNEL, listen);
    }
  });

  it("purges expired key-value rows periodically", async () => {
    const { kv } = server.ctx.repos;
    const past = new Date(Date.now() - 1000).toISOString();
    const future = new Date(Date.now() + 3600_000).toISOString();
    await kv.set("test:expired", "x", past);
    await kv.set("test:kept", "y", future);
    // It ran when the server started; make it due again rather than wait minutes.
    // (A scheduler that is not started shares the server's leases, Redis or database.)
    await (await createScheduler(server.ctx)).runSoon("kv.purge-expired");
    const rows = () => kv.listPrefix("test:", "0000");
    await waitFor(async () => (await rows()).length === 1, 5000, "the purge");
    assert.deepEqual(await rows(), [{ key: "test:kept", value: "y" }]);
  });

  it("removes uploads left unattached for over a day, periodically", async () => {
    const { default: sharp } = await import("sharp");
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const alice = await server.createUser("uploader");
    const upload = async () => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "a.png");
      const r = await server.request("/api/v1/media", { token: alice.token, multipart: form });
      assert.equal(r.status, 200);
      return r.body.id as string;
    };
    const old = await upload();
    const recent = await upload();
    const dayAndMore = new Date(Date.now() - 25 * 3600_000).toISOString();
    await server.ctx.db
      .updateTable("media_attachments")
      .set({ created_at: dayAndMore })
      .where("id", "=", old)
      .execute();
    await (await createScheduler(server.ctx)).runSoon("media.purge-unattached");
    const status = async (id: string) => (await server.request(`/api/v1/media/${id}`, { token: alice.token })).status;
    await waitFor(async () => (await status(old)) === 404, 5000, "the media purge");
    assert.equal(await status(recent), 200);
  });
});
