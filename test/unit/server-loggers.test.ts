import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { configure, getLogger, type LogRecord, reset } from "@logtape/logtape";
import { type GannetLogLevel, serverLoggers } from "../../src/lib/logging.ts";

/** What reaches the sink of a server configured for `level` when Fedify and Gannet log these. */
async function logged(level: GannetLogLevel): Promise<string[]> {
  const records: LogRecord[] = [];
  await configure({ sinks: { memory: (r) => records.push(r) }, ...serverLoggers(level, "memory") });
  const outbox = getLogger(["fedify", "federation", "outbox"]);
  // As Fedify words them (its middleware), at every failed attempt.
  outbox.error("Failed to send activity {activityId} to {inbox}:\n{error}", {
    activityId: "https://gannet.example/a/1",
    inbox: "https://peer.example/inbox",
    error: new Error("connect ECONNREFUSED"),
  });
  outbox.error("Failed to send activity {activityId} to {inbox}; backend will handle retry:\n{error}", {
    activityId: "https://gannet.example/a/1",
    inbox: "https://peer.example/inbox",
    error: new Error("connect ECONNREFUSED"),
  });
  outbox.error("An unexpected error occurred in outboxPermanentFailureHandler:\n{error}", { error: new Error("x") });
  getLogger(["fedify", "federation", "inbox"]).warning("Failed to verify the request's signature.");
  // Fedify's debug line of an outgoing activity, here an end-to-end encrypted message: never logged.
  outbox.debug("Enqueuing activity {activityId} to send later.", {
    activityId: "https://gannet.example/payloads/1",
    activity: { type: "Create", object: { type: "EncryptedMessage", cipherText: "c2VjcmV0" } },
  });
  getLogger(["fedify", "sig"]).debug("Signed {activity}", {
    activity: { type: "Create", object: { type: "EncryptedMessage", cipherText: "c2VjcmV0" } },
  });
  getLogger(["gannet", "jobs"]).info("Job {name} {id} failed (attempt 1 of 16), retrying: {message}", {
    name: "federation.outbox",
    id: "1",
    message: "connect ECONNREFUSED",
  });
  return records.map((r) => `${r.level} ${r.category.join(".")} ${String(r.message[0]).split(/[:;\n]/)[0]}`);
}

describe("the server's loggers", () => {
  afterEach(() => reset());

  it("leave a failed delivery to the job queue's one info line below debug", async () => {
    assert.deepEqual(await logged("info"), [
      "error fedify.federation.outbox An unexpected error occurred in outboxPermanentFailureHandler",
      "warning fedify.federation.inbox Failed to verify the request's signature.",
      "info gannet.jobs Job ",
    ]);
  });

  it("show Fedify's delivery failures, stacks and all, at debug", async () => {
    const lines = await logged("debug");
    assert.equal(lines.filter((l) => l.includes("Failed to send activity")).length, 2);
    assert.equal(lines.length, 5);
  });

  it("keep only errors at error", async () => {
    assert.deepEqual(await logged("error"), [
      "error fedify.federation.outbox An unexpected error occurred in outboxPermanentFailureHandler",
    ]);
  });
});
