import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fastSignatureStats } from "../../src/federation/inbox/fast-signature.ts";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// What the precheck verified (precheck.ts), signed by the activity's own actor, Fedify does not
// verify again (verified-skip.ts); everything else it verifies as always, and what fails either
// is refused.
describe("inbox: Fedify's verification skipped for what the precheck verified", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let mallory: FakeActor;
  let inbox: string;
  /** WebCrypto verifications (Fedify's; the precheck's own are node:crypto's). */
  let webVerifies = 0;
  const subtle = globalThis.crypto.subtle;
  const verify = subtle.verify;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    mallory = await remote.addActor("mallory");
    await s.createUser("alice");
    inbox = `${s.url}/inbox`;
    // Their keys fetched and verified by Fedify (the gate), then held by the pre-filter.
    assert.equal((await remote.send(inbox, remote.create(bob, remote.note(bob, "first")))).status, 202);
    assert.equal((await remote.send(inbox, remote.create(mallory, remote.note(mallory, "first")))).status, 202);
    subtle.verify = function (this: SubtleCrypto, ...args: Parameters<SubtleCrypto["verify"]>) {
      webVerifies++;
      return verify.apply(this, args);
    } as SubtleCrypto["verify"];
  });
  after(async () => {
    subtle.verify = verify;
    await s?.close();
    await remote?.close();
  });

  const stored = async (uri: string) => (await s.ctx.repos.statuses.getByUri(uri)) !== undefined;

  it("processes a valid activity signed by its actor with one verification, the precheck's", async () => {
    const before = { web: webVerifies, valid: fastSignatureStats.valid };
    const note = remote.note(bob, "once");
    assert.equal((await remote.send(inbox, remote.create(bob, note))).status, 202);
    assert.equal(await stored(note.id), true);
    assert.equal(fastSignatureStats.valid, before.valid + 1);
    assert.equal(webVerifies, before.web, "Fedify did not verify it again");
  });

  it("still refuses unsigned, forged and wrong-key activities", async () => {
    const unsigned = remote.note(bob, "unsigned");
    assert.equal((await remote.send(inbox, remote.create(bob, unsigned), { unsigned: true })).status, 401);
    const forged = remote.note(bob, "forged");
    const tamper = (body: string) => body.replace("<p>Hello</p>", "<p>Send me money</p>");
    assert.equal((await remote.send(inbox, remote.create(bob, forged), { tamper })).status, 401);
    // mallory's key named as bob's, and mallory's own key on bob's activity.
    const underBobsKey = remote.note(bob, "under-bobs-key");
    const wrongKey = { signer: { ...bob, keys: mallory.keys } };
    assert.equal((await remote.send(inbox, remote.create(bob, underBobsKey), wrongKey)).status, 401);
    const impersonated = remote.note(bob, "impersonated");
    assert.equal((await remote.send(inbox, remote.create(bob, impersonated), { signer: mallory })).status, 401);
    for (const n of [unsigned, forged, underBobsKey, impersonated]) assert.equal(await stored(n.id), false, n.id);
  });

  it("drops an activity whose JSON-LD makes another actor of it than its `actor` says", async () => {
    // Signed by mallory with her own key, `actor` mallory as plain JSON reads it; as JSON-LD, the
    // term `actor` means something else and the activity's actor is bob.
    const note = remote.note(bob, "context-trick");
    const activity = {
      ...remote.create(mallory, note),
      "@context": ["https://www.w3.org/ns/activitystreams", { actor: "https://example.com/ns#notTheActor" }],
      "https://www.w3.org/ns/activitystreams#actor": { id: bob.id },
    };
    const res = await remote.send(inbox, activity, { signer: mallory });
    assert.ok(res.status === 202 || res.status === 401, String(res.status));
    assert.equal(await stored(note.id), false);
  });

  it("verifies an RFC 9421 signature once, by Fedify's code in the precheck's gate", async () => {
    const before = webVerifies;
    const note = remote.note(bob, "rfc9421");
    assert.equal((await remote.send(inbox, remote.create(bob, note), { spec: "rfc9421" })).status, 202);
    assert.equal(await stored(note.id), true);
    assert.equal(webVerifies, before + 1);
  });
});
