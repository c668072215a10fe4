import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FailureThrottle } from "../../src/federation/inbox/failure-throttle.ts";
import { fastSignatureStats } from "../../src/federation/inbox/fast-signature.ts";
import { gateStats } from "../../src/federation/inbox/signature-gate.ts";
import { COMMAND_LINE } from "../../src/services/moderation/action-log.ts";
import { createIpBlock } from "../../src/services/moderation/ip-blocks.ts";
import { type FakeActor, FakeRemote, postSigned, type SendOptions } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("inbox failure throttle: the structure", () => {
  it("throttles past the limit for the rest of the window, then lets the address in again", () => {
    let now = 1_000_000;
    const t = new FailureThrottle({ limit: 3, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 3; i++) {
      assert.equal(t.retryAfter("a"), 0);
      t.fail("a");
    }
    assert.equal(t.retryAfter("a"), 60);
    assert.equal(t.retryAfter("b"), 0, "another address is not throttled");
    now += 45_500;
    assert.equal(t.retryAfter("a"), 15, "the rest of the window, rounded up");
    now += 14_500;
    assert.equal(t.retryAfter("a"), 0);
    t.fail("a");
    assert.equal(t.retryAfter("a"), 0, "a new window counts from one");
  });

  it("counts failures within a fixed window only", () => {
    let now = 0;
    const t = new FailureThrottle({ limit: 2, windowMs: 1000, now: () => now });
    t.fail("a");
    now = 1500;
    t.fail("a");
    assert.equal(t.retryAfter("a"), 0, "the first failure's window had ended");
    t.fail("a");
    assert.equal(t.retryAfter("a"), 1);
  });

  it("keeps at most maxEntries addresses, dropping the oldest window", () => {
    let now = 0;
    const t = new FailureThrottle({ limit: 2, windowMs: 60_000, maxEntries: 100, now: () => now });
    t.fail("first");
    t.fail("first");
    assert.ok(t.retryAfter("first") > 0);
    for (let i = 0; i < 10_000; i++) {
      now++;
      t.fail(`10.0.${i >> 8}.${i & 255}`);
    }
    assert.equal(t.size, 100);
    assert.equal(t.retryAfter("first"), 0, "the oldest entry was dropped");
    t.fail("10.0.39.15");
    assert.ok(t.retryAfter("10.0.39.15") > 0, "the newest entries are kept");
  });

  it("does nothing with a limit of 0", () => {
    const t = new FailureThrottle({ limit: 0, windowMs: 60_000 });
    for (let i = 0; i < 10; i++) t.fail("a");
    assert.equal(t.retryAfter("a"), 0);
    assert.equal(t.size, 0);
  });
});

// Loopback is a trusted proxy by default: X-Forwarded-For gives each request the client address
// the test picks, as behind a reverse proxy.
describe("inbox failure throttle: over HTTP", () => {
  const LIMIT = 5;
  const WINDOW_S = 3;
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let mallory: FakeActor;
  let inbox: string;
  let n = 0;

  const send = async (ip: string | undefined, opts: SendOptions = {}) => {
    const signed = await remote.sign(inbox, remote.create(bob, remote.note(bob, `t-${n++}`)), opts);
    if (ip) signed.headers.set("x-forwarded-for", ip);
    return postSigned(signed);
  };
  /** Signed with mallory's key under bob's key id. */
  const forged = (ip: string | undefined) => send(ip, { signer: { ...bob, keys: mallory.keys } });
  const verifications = () => gateStats.verifications + fastSignatureStats.valid + fastSignatureStats.failed;

  before(async () => {
    s = await startTestServer({
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1",
      INBOX_FAILURE_LIMIT: String(LIMIT),
      INBOX_FAILURE_WINDOW: String(WINDOW_S),
    });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    mallory = await remote.addActor("mallory");
    await s.createUser("alice");
    inbox = `${s.url}/inbox`;
    // bob's key fetched and held, so that forgeries under it are really verified.
    assert.equal((await send(undefined)).status, 202);
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  it("answers 429 without any verification once an address's signatures failed LIMIT times", async () => {
    for (let i = 0; i < LIMIT; i++) {
      const res = await forged("203.0.113.7");
      assert.equal(res.status, 401, `forgery ${i}`);
    }
    const before = verifications();
    const res = await forged("203.0.113.7");
    assert.equal(res.status, 429);
    assert.deepEqual(await res.json(), { error: "Too many requests" });
    const retryAfter = Number(res.headers.get("retry-after"));
    assert.ok(retryAfter >= 1 && retryAfter <= WINDOW_S, `Retry-After ${retryAfter}`);
    // Even a valid signature from that address waits: nothing is read or verified.
    assert.equal((await send("203.0.113.7")).status, 429);
    assert.equal((await send("203.0.113.7", { unsigned: true })).status, 401, "unsigned: refused as before");
    assert.equal(verifications(), before, "no verification once throttled");
  });

  it("still takes valid signatures from other addresses, the proxy's own included", async () => {
    assert.equal((await send("198.51.100.2")).status, 202);
    assert.equal((await send(undefined)).status, 202);
    assert.equal((await forged("203.0.113.7")).status, 429, "the throttled address still is");
  });

  it("counts a tampered body, not a signed body that is refused for its content", async () => {
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await send("198.51.100.3", { rawBody: "not json" });
      assert.equal(res.status, 400, "the signature verified, the content refused");
    }
    assert.equal((await send("198.51.100.3")).status, 202);
    for (let i = 0; i < LIMIT; i++) {
      const res = await send("198.51.100.4", { tamper: (body) => body.replace("Hello", "Pay me") });
      assert.equal(res.status, 401, "the digest no longer matches");
    }
    assert.equal((await send("198.51.100.4")).status, 429);
  });

  it("checks the signature before routing, yet an IP block with no_access still answers 403 first", async () => {
    // Refused before routing (app.ts): the same 401, counted against the address as before.
    const before = fastSignatureStats.failed;
    assert.equal((await forged("198.51.100.9")).status, 401);
    assert.equal(fastSignatureStats.failed, before + 1, "verified with the held key");
    await createIpBlock(s.ctx, COMMAND_LINE, { ip: "192.0.2.0/24", severity: "no_access" });
    const verifiedBefore = verifications();
    const blocked = await forged("192.0.2.9");
    assert.equal(blocked.status, 403);
    assert.equal(await blocked.text(), "Forbidden\n");
    assert.equal((await send("192.0.2.10")).status, 403, "a valid signature too");
    assert.equal(verifications(), verifiedBefore, "nothing verified for a blocked address");
    // Other addresses still go through the early check and on to Fedify.
    assert.equal((await send("198.51.100.9")).status, 202);
  });

  it("lets the address in again once the window is over", async () => {
    // An address of its own, throttled here: the earlier tests' window may be over on a slow run.
    let res = await forged("203.0.113.8");
    for (let i = 0; i < 2 * LIMIT && res.status !== 429; i++) res = await forged("203.0.113.8");
    assert.equal(res.status, 429);
    await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after")) * 1000 + 100));
    assert.equal((await send("203.0.113.8")).status, 202);
  });
});
