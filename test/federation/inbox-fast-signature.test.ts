import assert from "node:assert/strict";
import { createHash, KeyObject, sign } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { fastSignatureStats, kvOf } from "../../src/federation/inbox/fast-signature.ts";
import { gateStats } from "../../src/federation/inbox/signature-gate.ts";
import { type FakeActor, FakeRemote, postSigned } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The inbox's pre-filter (fast-signature.ts) checks a Mastodon-style signature made with a key
// Fedify already holds with node:crypto; Fedify's verification in the gate (signature-gate.ts,
// counted by gateStats) is left for what it cannot decide.
describe("inbox: signatures checked with held keys before Fedify's verification", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let mallory: FakeActor;
  let inbox: string;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    mallory = await remote.addActor("mallory");
    await s.createUser("alice");
    inbox = `${s.url}/inbox`;
    // bob's first activity: his key fetched and verified by Fedify, then held.
    const first = await remote.send(inbox, remote.create(bob, remote.note(bob, "first")));
    assert.equal(first.status, 202);
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  const countByUri = async (uri: string) =>
    Number(
      (
        await s.ctx.db
          .selectFrom("statuses")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("uri", "=", uri)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const statusesCount = async (actor: FakeActor) => (await s.ctx.repos.accounts.getByUri(actor.id))?.statusesCount;
  /** Signed with mallory's key under `actor`'s key id. */
  const forge = (actor: FakeActor) => ({ signer: { ...actor, keys: mallory.keys } });

  it("takes a valid signature with a held key without Fedify's verification in the gate, and processes it once", async () => {
    await s.settle({ delayed: false });
    const before = { gate: gateStats.verifications, valid: fastSignatureStats.valid, count: await statusesCount(bob) };
    const note = remote.note(bob, "fast");
    assert.equal((await remote.send(inbox, remote.create(bob, note))).status, 202);
    await s.settle({ delayed: false });
    assert.equal(gateStats.verifications, before.gate, "the gate did not verify it");
    assert.equal(fastSignatureStats.valid, before.valid + 1);
    assert.equal(await countByUri(note.id), 1);
    assert.equal(await statusesCount(bob), (before.count ?? 0) + 1);
  });

  it("lets the gate verify again once Fedify's key cache entry is rewritten, then holds the key anew", async () => {
    const kv = kvOf(await s.ctx.federation());
    const entry = await kv.get(["_fedify", "publicKey", bob.keyId]);
    assert.ok(entry, "Fedify cached bob's key");
    await kv.set(["_fedify", "publicKey", bob.keyId], structuredClone(entry));
    const gate = gateStats.verifications;
    assert.equal((await remote.send(inbox, remote.create(bob, remote.note(bob, "rewritten")))).status, 202);
    assert.equal(gateStats.verifications, gate + 1);
    assert.equal((await remote.send(inbox, remote.create(bob, remote.note(bob, "held-again")))).status, 202);
    assert.equal(gateStats.verifications, gate + 1);
  });

  it("refuses forged signatures naming a held key without Fedify's verification, past the minute's refetch", async () => {
    const gate = gateStats.verifications;
    const failed = fastSignatureStats.failed;
    // The first failure may be a rotated key: Fedify's gate fetches it again (once a minute).
    const first = await remote.send(inbox, remote.create(bob, remote.note(bob, "forged-0")), forge(bob));
    assert.equal(first.status, 401);
    assert.equal(gateStats.verifications, gate + 1);
    for (let i = 1; i <= 5; i++) {
      const res = await remote.send(inbox, remote.create(bob, remote.note(bob, `forged-${i}`)), forge(bob));
      assert.equal(res.status, 401);
      assert.deepEqual(await res.json(), { error: "Signature verification failed" });
    }
    assert.equal(gateStats.verifications, gate + 1, "no further verification by Fedify");
    assert.equal(fastSignatureStats.failed, failed + 6);
    // A tampered body (its digest no longer matches) is refused there as well.
    const tampered = await remote.send(inbox, remote.create(bob, remote.note(bob, "tampered")), {
      tamper: (body) => body.replace("Hello", "Pay me"),
    });
    assert.equal(tampered.status, 401);
    assert.equal(gateStats.verifications, gate + 1);
    // The refetch rewrote Fedify's key cache: the key held again, bob's own signature still taken.
    const valid = fastSignatureStats.valid;
    assert.equal((await remote.send(inbox, remote.create(bob, remote.note(bob, "after-forgeries")))).status, 202);
    assert.equal(fastSignatureStats.valid, valid + 1);
    assert.equal(gateStats.verifications, gate + 1);
    await s.settle({ delayed: false });
    assert.equal(await countByUri(`${bob.id}/statuses/forged-0`), 0);
    assert.equal(await countByUri(`${bob.id}/statuses/forged-5`), 0);
  });

  it("takes a rotated key within the refetch allowance, then holds the new key and refuses the old", async () => {
    const carol = await remote.addActor("carol");
    assert.equal((await remote.send(inbox, remote.create(carol, remote.note(carol, "old-key")))).status, 202);
    const oldKeys = carol.keys;
    await remote.rotateKey(carol);
    // The fetched actor document is cached for 5 minutes: its expiry, simulated.
    const documents = await s.ctx.repos.kv.listPrefix("_fedify/remoteDocument/", new Date().toISOString());
    for (const d of documents.filter((d) => decodeURIComponent(d.key).includes(carol.id))) {
      await s.ctx.repos.kv.delete(d.key);
    }
    const gate = gateStats.verifications;
    const rotated = remote.note(carol, "new-key");
    assert.equal((await remote.send(inbox, remote.create(carol, rotated))).status, 202);
    assert.equal(gateStats.verifications, gate + 1, "the held key failed, the gate fetched the new one");
    const valid = fastSignatureStats.valid;
    assert.equal((await remote.send(inbox, remote.create(carol, remote.note(carol, "new-key-2")))).status, 202);
    assert.equal(fastSignatureStats.valid, valid + 1, "the new key is held");
    const stale = await remote.send(inbox, remote.create(carol, remote.note(carol, "stale")), {
      signer: { ...carol, keys: oldKeys },
    });
    assert.equal(stale.status, 401);
    assert.equal(gateStats.verifications, gate + 1);
    await s.settle({ delayed: false });
    assert.equal(await countByUri(rotated.id), 1);
    assert.equal(await countByUri(`${carol.id}/statuses/stale`), 0);
  });

  it("takes an hs2019 signature over (created), (expires) and more headers, built as the cavage draft says", async () => {
    const activity = remote.create(bob, remote.note(bob, "hs2019"));
    const body = JSON.stringify(activity);
    const created = Math.floor(Date.now() / 1000) - 5;
    const headers: Record<string, string> = {
      host: new URL(s.url).host,
      date: new Date().toUTCString(),
      digest: `SHA-256=${createHash("sha256").update(body).digest("base64")}`,
      "content-type": "application/activity+json",
    };
    const names = ["(request-target)", "(created)", "(expires)", "host", "date", "digest", "content-type"];
    const signWith = (key: CryptoKey, path: string) => {
      const values: Record<string, string> = {
        "(request-target)": `post ${path}`,
        "(created)": String(created),
        "(expires)": String(created + 300),
        ...headers,
      };
      const message = names.map((n) => `${n}: ${values[n]}`).join("\n");
      const signature = sign("sha256", Buffer.from(message), KeyObject.from(key)).toString("base64");
      return `keyId="${bob.keyId}",algorithm="hs2019",created=${created},expires=${created + 300},headers="${names.join(" ")}",signature="${signature}"`;
    };
    const post = (signature: string) => fetch(inbox, { method: "POST", headers: { ...headers, signature }, body });
    const { valid, failed } = fastSignatureStats;
    // Signed for another path: the (request-target) differs, so it does not verify.
    assert.equal((await post(signWith(bob.keys.privateKey, "/users/alice/inbox"))).status, 401);
    assert.equal(fastSignatureStats.failed, failed + 1);
    const gate = gateStats.verifications;
    assert.equal((await post(signWith(bob.keys.privateKey, "/inbox"))).status, 202);
    assert.equal(fastSignatureStats.valid, valid + 1);
    assert.equal(gateStats.verifications, gate);
    await s.settle({ delayed: false });
    assert.equal(await countByUri(`${bob.id}/statuses/hs2019`), 1);
  });

  it("verifies in libuv's thread pool: valid and forged signatures in flight together each get their own answer", async () => {
    const dave = await remote.addActor("dave");
    assert.equal((await remote.send(inbox, remote.create(dave, remote.note(dave, "dave-first")))).status, 202);
    const checked = () => fastSignatureStats.valid + fastSignatureStats.failed;
    const before = checked();
    // Signed before sending, then all sent at once: the verifications overlap in the pool.
    const requests = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 2 === 0
          ? remote.sign(inbox, remote.create(dave, remote.note(dave, `together-${i}`)))
          : remote.sign(inbox, remote.create(dave, remote.note(dave, `together-${i}`)), forge(dave)),
      ),
    );
    const statuses = await Promise.all(requests.map(async (r) => (await postSigned(r)).status));
    assert.deepEqual(
      statuses,
      statuses.map((_, i) => (i % 2 === 0 ? 202 : 401)),
    );
    // Most were checked with the held key; those in flight while the first forgery's refetch
    // rewrote Fedify's key cache went to the gate instead (which answers the same).
    assert.ok(checked() > before);
    await s.settle({ delayed: false });
    for (let i = 0; i < 16; i++)
      assert.equal(await countByUri(`${dave.id}/statuses/together-${i}`), i % 2 === 0 ? 1 : 0);
  });

  it("refuses a signature that is not one (too short, not base64) naming a held key", async () => {
    const activity = remote.create(bob, remote.note(bob, "garbled"));
    const signed = await remote.sign(inbox, activity);
    for (const garbled of ["AAAA", "not base64 at all!", ""]) {
      const headers = new Headers(signed.headers);
      headers.set("signature", (headers.get("signature") ?? "").replace(/signature="[^"]*"/, `signature="${garbled}"`));
      const res = await fetch(inbox, { method: "POST", headers, body: signed.body });
      assert.equal(res.status, 401, garbled);
    }
    await s.settle({ delayed: false });
    assert.equal(await countByUri(`${bob.id}/statuses/garbled`), 0);
  });

  it("leaves RFC 9421 signatures to Fedify's verification, which takes a valid one and refuses a forged one", async () => {
    const gate = gateStats.verifications;
    const note = remote.note(bob, "rfc9421");
    assert.equal((await remote.send(inbox, remote.create(bob, note), { spec: "rfc9421" })).status, 202);
    assert.equal(gateStats.verifications, gate + 1);
    const forged = await remote.send(inbox, remote.create(bob, remote.note(bob, "rfc9421-forged")), {
      spec: "rfc9421",
      ...forge(bob),
    });
    assert.equal(forged.status, 401);
    assert.equal(gateStats.verifications, gate + 2);
    await s.settle({ delayed: false });
    assert.equal(await countByUri(note.id), 1);
    assert.equal(await countByUri(`${bob.id}/statuses/rfc9421-forged`), 0);
  });

  it("refuses a Date outside the hour's window before Fedify's verification or any key fetch", async () => {
    const gate = gateStats.verifications;
    for (const offset of [-2 * 3600_000, 2 * 3600_000]) {
      const time = new Date(Date.now() + offset);
      const res = await remote.send(inbox, remote.create(bob, remote.note(bob, `dated-${offset}`)), { time });
      assert.equal(res.status, 401);
    }
    // A key never seen: not fetched either.
    const erin = await remote.addActor("erin");
    const old = new Date(Date.now() - 2 * 3600_000);
    assert.equal((await remote.send(inbox, remote.create(erin, remote.note(erin, "old")), { time: old })).status, 401);
    assert.equal(gateStats.verifications, gate);
    assert.equal(remote.requests.filter((r) => r.path.startsWith("/users/erin")).length, 0);
    // Within the window (signed 50 minutes ago), taken.
    const recent = new Date(Date.now() - 50 * 60_000);
    const note = remote.note(bob, "dated-recent");
    assert.equal((await remote.send(inbox, remote.create(bob, note), { time: recent })).status, 202);
    await s.settle({ delayed: false });
    assert.equal(await countByUri(note.id), 1);
  });
});

// The verifications run in libuv's thread pool, which belongs to Node: nothing of Gannet's to
// stop, and a server closed while some are in flight closes all the same.
describe("inbox: a server closed while signatures are being verified in the pool", () => {
  it("closes, and every request in flight is answered 401 or cut off", async () => {
    const s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1", INBOX_FAILURE_LIMIT: "0" });
    const remote = await FakeRemote.start();
    try {
      const bob = await remote.addActor("bob");
      const mallory = await remote.addActor("mallory");
      await s.createUser("alice");
      const inbox = `${s.url}/inbox`;
      assert.equal((await remote.send(inbox, remote.create(bob, remote.note(bob, "first")))).status, 202);
      const forged = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          remote.sign(inbox, remote.create(bob, remote.note(bob, `closing-${i}`)), {
            signer: { ...bob, keys: mallory.keys },
          }),
        ),
      );
      const failedBefore = fastSignatureStats.failed;
      // A connection cut off by the close is an answer too (caught at once, not left unhandled).
      const inFlight = forged.map((r) =>
        postSigned(r).then(
          (res) => res.status,
          () => "cut off",
        ),
      );
      // Closed once the first verification has started (so others are in the pool meanwhile).
      while (fastSignatureStats.failed === failedBefore) await new Promise((r) => setImmediate(r));
      await s.close();
      for (const answer of await Promise.all(inFlight))
        assert.ok(answer === 401 || answer === "cut off", String(answer));
    } finally {
      await remote.close();
    }
  });
});
