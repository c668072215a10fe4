import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { deviceKeys, tokenFor } from "../helpers/crypto-keys.ts";
import { FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ALLOW = { ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" };
const AP = "application/activity+json";

/**
 * End-to-end encryption across two Gannet servers, as Mastodon federated it: the actor's
 * `devices` collection, a remote device's keys queried and its one-time keys claimed with signed
 * requests, and messages delivered as `EncryptedMessage`s in a `Create` to the recipient's inbox.
 */
describe("encrypted messages between two Gannet servers", () => {
  let a: TestServer;
  let b: TestServer;
  let alice: TestUser; // on A
  let bob: TestUser; // on B
  let aliceDevice: string;
  let bobDevice: string;
  let aliceOnB: string;
  let bobOnA: string;
  const aliceKeys = deviceKeys("alice-phone");
  const bobKeys = deviceKeys("bob-laptop");

  async function settle() {
    for (let i = 0; i < 3; i++) {
      await a.settle({ delayed: false });
      await b.settle({ delayed: false });
    }
  }

  async function lookup(on: TestServer, token: string, username: string, from: TestServer): Promise<string> {
    const q = encodeURIComponent(`@${username}@${from.ctx.config.localDomain}`);
    const r = await on.request(`/api/v2/search?q=${q}&resolve=true&type=accounts`, { token });
    assert.ok(r.body.accounts?.[0], `${username} not found`);
    return r.body.accounts[0].id;
  }

  const post = (s: TestServer, path: string, token: string, json: unknown) =>
    s.request(path, { method: "POST", token, json });

  before(async () => {
    [a, b] = await Promise.all([startTestServer(ALLOW), startTestServer(ALLOW)]);
    alice = await a.createUser("alice");
    bob = await b.createUser("bob");
    aliceDevice = await tokenFor(a.ctx, alice.user.id);
    bobDevice = await tokenFor(b.ctx, bob.user.id);
    const up = await post(a, "/api/v1/crypto/keys/upload", aliceDevice, {
      device: aliceKeys.device,
      one_time_keys: aliceKeys.oneTimeKeys(2),
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal((await post(b, "/api/v1/crypto/keys/upload", bobDevice, { device: bobKeys.device })).status, 200);
    aliceOnB = await lookup(b, bob.token, "alice", a);
    bobOnA = await lookup(a, alice.token, "bob", b);
    await settle();
  });
  after(async () => {
    await Promise.all([a.close(), b.close(), remote?.close()]);
  });
  let remote: FakeRemote | undefined;

  test("the actor names its devices collection, which lists the device and its claim URL", async () => {
    const actor = await fetch(`${a.url}/users/alice`, { headers: { accept: AP } }).then((r) => r.json());
    const devicesUrl = `${a.ctx.config.baseUrl}/users/alice/collections/devices`;
    assert.equal(actor.devices, devicesUrl);
    const res = await fetch(`${a.url}/users/alice/collections/devices`, { headers: { accept: AP } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /activity\+json/);
    const collection = await res.json();
    assert.equal(collection.id, devicesUrl);
    assert.equal(collection.type, "Collection");
    assert.equal(collection.totalItems, 1);
    assert.deepEqual(collection.items[0], {
      deviceId: "alice-phone",
      type: "Device",
      name: aliceKeys.device.name,
      claim: `${a.ctx.config.baseUrl}/users/alice/claim?id=alice-phone`,
      fingerprintKey: { type: "Ed25519Key", publicKeyBase64: aliceKeys.device.fingerprint_key },
      identityKey: { type: "Curve25519Key", publicKeyBase64: aliceKeys.device.identity_key },
    });
    const unsigned = await fetch(`${a.url}/users/alice/claim?id=alice-phone`, { method: "POST" });
    assert.equal(unsigned.status, 401, "a claim must be signed");
    assert.equal((await fetch(`${a.url}/users/nobody/collections/devices`)).status, 404);
  });

  test("B queries alice's devices from A and claims each one-time key once", async () => {
    const q = await post(b, "/api/v1/crypto/keys/query", bobDevice, { id: [aliceOnB] });
    assert.equal(q.status, 200);
    assert.deepEqual(q.body, [
      {
        account_id: aliceOnB,
        devices: [
          {
            device_id: "alice-phone",
            name: aliceKeys.device.name,
            identity_key: aliceKeys.device.identity_key,
            fingerprint_key: aliceKeys.device.fingerprint_key,
          },
        ],
      },
    ]);
    const claim = () =>
      post(b, "/api/v1/crypto/keys/claim", bobDevice, { device: [{ account_id: aliceOnB, device_id: "alice-phone" }] });
    const first = (await claim()).body;
    const second = (await claim()).body;
    assert.equal(first.length, 1);
    assert.equal(second.length, 1);
    assert.equal(first[0].account_id, aliceOnB);
    assert.notEqual(first[0].key_id, second[0].key_id, "no key twice");
    assert.deepEqual((await claim()).body, [], "none left");
    assert.deepEqual((await a.request("/api/v1/crypto/keys/count", { token: aliceDevice })).body, { one_time_keys: 0 });
  });

  test("a delivery to alice's device on A arrives there with its sender and created_at", async () => {
    const sentAt = new Date().toISOString();
    const sent = await post(b, "/api/v1/crypto/deliveries", bobDevice, {
      device: [
        { account_id: aliceOnB, device_id: "alice-phone", type: 0, body: "Y2lwaGVydGV4dA", hmac: "bWFj" },
        // A device alice does not have: sent, and dropped by A.
        { account_id: aliceOnB, device_id: "alice-tablet", type: 1, body: "bG9zdA", hmac: "bWFj" },
      ],
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await settle();
    const list = await a.request("/api/v1/crypto/encrypted_messages", { token: aliceDevice });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    const [m] = list.body;
    assert.equal(m.account_id, bobOnA);
    assert.equal(m.device_id, "bob-laptop");
    assert.equal(m.type, 0);
    assert.equal(m.body, "Y2lwaGVydGV4dA");
    assert.equal(m.digest, "bWFj");
    assert.ok(m.message_franking.length > 20);
    assert.match(m.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(m.created_at >= sentAt, "created_at is when it arrived");
    assert.deepEqual((await b.request("/api/v1/crypto/encrypted_messages", { token: bobDevice })).body, []);
  });

  test("an EncryptedMessage from a Mastodon-shaped server is taken only signed, well formed, on the user's own inbox, once", async () => {
    remote = await FakeRemote.start();
    const mallory = await remote.addActor("mallory");
    const eve = await remote.addActor("eve");
    const message = (fields: Record<string, unknown> = {}) =>
      remote!.activity(mallory, "Create", {
        to: `${a.ctx.config.baseUrl}/users/alice`,
        object: {
          type: "EncryptedMessage",
          messageType: 1,
          cipherText: "ZnJvbSBtYWxsb3J5",
          messageFranking: "theirs",
          attributedTo: { type: "Device", deviceId: "m1" },
          to: { type: "Device", deviceId: "alice-phone" },
          digest: {
            type: "Digest",
            digestAlgorithm: "http://www.w3.org/2000/09/xmldsig#hmac-sha256",
            digestValue: "ZA",
          },
          ...fields,
        },
      });
    const inbox = `${a.url}/users/alice/inbox`;
    const bodies = async () =>
      (await a.request("/api/v1/crypto/encrypted_messages", { token: aliceDevice })).body.map(
        (m: { body: string }) => m.body,
      );
    const before = await bodies();
    assert.equal((await remote.send(`${a.url}/inbox`, message())).status, 202, "the shared inbox answers");
    assert.equal((await remote.send(inbox, message({ messageType: "one" }))).status, 400);
    assert.equal((await remote.send(inbox, message(), { signer: eve })).status, 401, "signed by another actor");
    assert.equal((await remote.send(inbox, message(), { tamper: (b) => b.replace("ZnJv", "QUFB") })).status, 401);
    assert.deepEqual(await bodies(), before, "none of those was stored");

    const good = message();
    assert.equal((await remote.send(inbox, good)).status, 202);
    assert.equal((await remote.send(inbox, good)).status, 202, "a retried delivery");
    const list = (await a.request("/api/v1/crypto/encrypted_messages", { token: aliceDevice })).body;
    assert.deepEqual(await bodies(), ["ZnJvbSBtYWxsb3J5", ...before], "stored once");
    const malloryHere = await a.ctx.repos.accounts.getByUri(mallory.id);
    assert.equal(list[0].account_id, malloryHere?.id);
    assert.equal(list[0].device_id, "m1");
    assert.equal(list[0].type, 1);
    assert.notEqual(list[0].message_franking, "theirs", "this server's own franking token");
  });
});
