import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryKvStore } from "@fedify/fedify";
import { CIRCUIT, DeliveryCircuit } from "../../src/federation/delivery-circuit.ts";

const INBOX = "https://peer.example/inbox";

function circuitAt(start: number) {
  let now = start;
  const circuit = new DeliveryCircuit(new MemoryKvStore(), () => now);
  return { circuit, advance: (ms: number) => (now += ms), now: () => now };
}

describe("per-inbox delivery circuit", () => {
  it("opens after the threshold of failures in a row, and a success in between resets the count", async () => {
    const { circuit } = circuitAt(1_000_000);
    for (let i = 0; i < CIRCUIT.failureThreshold - 1; i++) await circuit.failed(INBOX);
    const before = await circuit.before(INBOX);
    assert.equal(before.type, "send");
    await circuit.reached(INBOX, before.type === "send" ? before.state : undefined);
    await circuit.failed(INBOX);
    assert.equal((await circuit.before(INBOX)).type, "send", "counting starts again");
    for (let i = 0; i < CIRCUIT.failureThreshold; i++) await circuit.failed(INBOX);
    assert.equal((await circuit.before(INBOX)).type, "hold");
    assert.equal((await circuit.before("https://peer.example/users/other/inbox")).type, "send", "other inboxes go");
  });

  it("holds until the cool-off ends, lets one probe through, closes on its success", async () => {
    const { circuit, advance, now } = circuitAt(2_000_000);
    for (let i = 0; i < CIRCUIT.failureThreshold; i++) await circuit.failed(INBOX);
    const held = await circuit.before(INBOX);
    assert.equal(held.type, "hold");
    if (held.type === "hold") {
      assert.ok(held.runAt >= now() + CIRCUIT.coolOffMs);
      assert.ok(held.runAt <= now() + CIRCUIT.coolOffMs + CIRCUIT.spreadMs);
    }
    advance(CIRCUIT.coolOffMs);
    const probe = await circuit.before(INBOX);
    assert.equal(probe.type, "send");
    const meets = await circuit.before(INBOX);
    assert.equal(meets.type, "hold", "one probe at a time");
    // Until the probe must be over, not a second later again and again.
    if (meets.type === "hold") assert.ok(meets.runAt >= now() + CIRCUIT.probeMs, String(meets.runAt - now()));
    await circuit.reached(INBOX, probe.type === "send" ? probe.state : undefined);
    assert.deepEqual(await circuit.before(INBOX), { type: "send", state: undefined });
  });

  it("opens again at once when the probe fails", async () => {
    const { circuit, advance } = circuitAt(3_000_000);
    for (let i = 0; i < CIRCUIT.failureThreshold; i++) await circuit.failed(INBOX);
    advance(CIRCUIT.coolOffMs);
    assert.equal((await circuit.before(INBOX)).type, "send");
    await circuit.failed(INBOX);
    advance(CIRCUIT.probeMs);
    assert.equal((await circuit.before(INBOX)).type, "hold");
  });

  it("makes a long-held delivery wait longer between looks, up to a bound, and drops it after the TTL", async () => {
    const { circuit, now } = circuitAt(10 * 86_400_000);
    for (let i = 0; i < CIRCUIT.failureThreshold; i++) await circuit.failed(INBOX);
    const hour = 3_600_000;
    const after1h = await circuit.before(INBOX, now() - hour);
    assert.equal(after1h.type, "hold");
    if (after1h.type === "hold") assert.ok(after1h.runAt - now() >= hour / 4, String(after1h.runAt - now()));
    const after2d = await circuit.before(INBOX, now() - 2 * 86_400_000);
    if (after2d.type === "hold") {
      assert.ok(after2d.runAt - now() <= CIRCUIT.coolOffMs + CIRCUIT.maxWaitMs + CIRCUIT.spreadMs);
    } else assert.fail("held");
    assert.deepEqual(await circuit.before(INBOX, now() - CIRCUIT.heldTtlMs - 1), { type: "drop" });
  });
});
