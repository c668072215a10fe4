import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { deviceKeys, tokenFor } from "../helpers/crypto-keys.ts";
import { expectEntity } from "../helpers/entity-schemas.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket, type WsClient } from "../helpers/streaming.ts";

/**
 * The end-to-end encryption API on one server (Mastodon 3.3 to 4.2): device keys, one-time keys
 * handed out once, deliveries between devices, the device's messages with pagination and clear,
 * the `crypto` scope, and the `encrypted_message` streaming event.
 */
describe("encrypted messages API", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  /** A token of each with `crypto` (one device each). */
  let aliceDevice: string;
  let bobDevice: string;
  const aliceKeys = deviceKeys("alice-phone");
  const bobKeys = deviceKeys("bob-laptop");
  const sockets: WsClient[] = [];

  const post = (path: string, token: string, json: unknown) => s.request(path, { method: "POST", token, json });
  const get = (path: string, token: string) => s.request(path, { token });

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    aliceDevice = await tokenFor(s.ctx, alice.user.id);
    bobDevice = await tokenFor(s.ctx, bob.user.id);
  });
  after(async () => {
    for (const ws of sockets) await ws.close();
    await s.close();
  });

  it("needs the crypto scope, which read and write do not grant, and a user token", async () => {
    // alice.token holds read write follow push profile.
    for (const [method, path] of [
      ["POST", "/api/v1/crypto/keys/upload"],
      ["POST", "/api/v1/crypto/keys/query"],
      ["POST", "/api/v1/crypto/keys/claim"],
      ["GET", "/api/v1/crypto/keys/count"],
      ["POST", "/api/v1/crypto/deliveries"],
      ["GET", "/api/v1/crypto/encrypted_messages"],
      ["POST", "/api/v1/crypto/encrypted_messages/clear"],
    ]) {
      const r = await s.request(path, { method, token: alice.token, json: method === "POST" ? {} : undefined });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.deepEqual(r.body, { error: "This action is outside the authorized scopes" });
    }
    assert.equal((await s.request("/api/v1/crypto/keys/count")).status, 401);
    const appToken = await s.appToken("read");
    assert.equal((await get("/api/v1/crypto/keys/count", appToken)).status, 403);
  });

  it("answers 404 to a token that has no device yet", async () => {
    const r = await get("/api/v1/crypto/keys/count", aliceDevice);
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { error: "Record not found" });
    assert.equal((await get("/api/v1/crypto/encrypted_messages", aliceDevice)).status, 404);
  });

  it("refuses a device without a name or with keys that are not keys, and a badly signed one-time key, storing nothing", async () => {
    const missing = await post("/api/v1/crypto/keys/upload", aliceDevice, {
      device: { ...aliceKeys.device, name: "", identity_key: "bm90IGEga2V5" },
    });
    assert.equal(missing.status, 422);
    assert.equal(
      missing.body.error,
      "Validation failed: Name can't be blank, Identity key is not a valid Ed25519 or Curve25519 key",
    );
    const [good] = aliceKeys.oneTimeKeys(1);
    const forged = { ...good, signature: deviceKeys("x").oneTimeKeys(1)[0].signature };
    const bad = await post("/api/v1/crypto/keys/upload", aliceDevice, {
      device: aliceKeys.device,
      one_time_keys: [good, forged],
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error, "Validation failed: Signature is not a valid Ed25519 signature");
    assert.equal((await get("/api/v1/crypto/keys/count", aliceDevice)).status, 404, "no device was stored");
  });

  it("uploads a device with one-time keys, counts them, and shows the device to others", async () => {
    const r = await post("/api/v1/crypto/keys/upload", aliceDevice, {
      device: aliceKeys.device,
      one_time_keys: aliceKeys.oneTimeKeys(3),
    });
    expectEntity(r, "CryptoDevice", "upload");
    assert.deepEqual(r.body, {
      device_id: "alice-phone",
      name: aliceKeys.device.name,
      identity_key: aliceKeys.device.identity_key,
      fingerprint_key: aliceKeys.device.fingerprint_key,
    });
    const count = expectEntity(await get("/api/v1/crypto/keys/count", aliceDevice), "CryptoKeyCount", "count");
    assert.deepEqual(count, { one_time_keys: 3 });
    // More keys later, without the device (its identity stays).
    const more = await post("/api/v1/crypto/keys/upload", aliceDevice, {
      one_time_keys: aliceKeys.oneTimeKeys(2, "m"),
    });
    assert.equal(more.status, 200);
    assert.deepEqual((await get("/api/v1/crypto/keys/count", aliceDevice)).body, { one_time_keys: 5 });

    assert.equal((await post("/api/v1/crypto/keys/upload", bobDevice, { device: bobKeys.device })).status, 200);
    const q = await post("/api/v1/crypto/keys/query", bobDevice, { id: [alice.account.id, "999999", bob.account.id] });
    expectEntity(q, ["CryptoQueryResult"], "query");
    assert.deepEqual(q.body, [
      { account_id: alice.account.id, devices: [r.body] },
      {
        account_id: bob.account.id,
        devices: [
          {
            device_id: "bob-laptop",
            name: bobKeys.device.name,
            identity_key: bobKeys.device.identity_key,
            fingerprint_key: bobKeys.device.fingerprint_key,
          },
        ],
      },
    ]);
  });

  it("hands each one-time key out once, concurrent claims included", async () => {
    const claim = () =>
      post("/api/v1/crypto/keys/claim", bobDevice, {
        device: [{ account_id: alice.account.id, device_id: "alice-phone" }],
      });
    const answers = await Promise.all(Array.from({ length: 8 }, claim));
    const keys = answers.flatMap((a) => {
      expectEntity(a, ["CryptoClaimResult"], "claim");
      return a.body as { account_id: string; device_id: string; key_id: string; key: string; signature: string }[];
    });
    assert.equal(keys.length, 5, "five keys, then none");
    assert.equal(new Set(keys.map((k) => k.key_id)).size, 5, "no key twice");
    for (const k of keys) {
      assert.equal(k.account_id, alice.account.id);
      assert.equal(k.device_id, "alice-phone");
      assert.ok(k.key && k.signature);
    }
    assert.deepEqual((await get("/api/v1/crypto/keys/count", aliceDevice)).body, { one_time_keys: 0 });
    assert.deepEqual((await claim()).body, []);
  });

  it("delivers messages between devices, streams them, and pages and clears them", async () => {
    const ws = await openSocket(s.url, { token: aliceDevice, query: { stream: "user" } });
    sockets.push(ws);
    ws.send({ type: "subscribe", stream: "nonsense" });
    await ws.inbox.next((m) => m.error !== undefined, "the subscription");

    const missing = await post("/api/v1/crypto/deliveries", bobDevice, {});
    assert.equal(missing.status, 400);
    const unknown = await post("/api/v1/crypto/deliveries", bobDevice, {
      device: [
        { account_id: alice.account.id, device_id: "alice-phone", type: 0, body: "c2VjcmV0", hmac: "aG1hYw" },
        { account_id: alice.account.id, device_id: "nope", type: 0, body: "eA", hmac: "eQ" },
      ],
    });
    assert.equal(unknown.status, 404);
    const noDevice = await post("/api/v1/crypto/deliveries", await tokenFor(s.ctx, bob.user.id), {
      device: [{ account_id: alice.account.id, device_id: "alice-phone", type: 0, body: "eA", hmac: "eQ" }],
    });
    assert.equal(noDevice.status, 404, "a token without a device cannot deliver");

    for (let i = 0; i < 4; i++) {
      const r = await post("/api/v1/crypto/deliveries", bobDevice, {
        device: [
          {
            account_id: alice.account.id,
            device_id: "alice-phone",
            type: i % 2,
            body: `Ym9keQ${i}`,
            hmac: `aG1hYw${i}`,
          },
        ],
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, {});
    }
    const streamed = JSON.parse((await ws.event("encrypted_message")).payload as string);
    assert.equal(streamed.body, "Ym9keQ0");

    const all = await get("/api/v1/crypto/encrypted_messages", aliceDevice);
    expectEntity(all, ["EncryptedMessage"], "encrypted messages");
    assert.equal(all.body.length, 4, "the message of the refused delivery was not stored");
    assert.deepEqual(
      all.body.map((m: { body: string }) => m.body),
      ["Ym9keQ3", "Ym9keQ2", "Ym9keQ1", "Ym9keQ0"],
    );
    const [newest] = all.body;
    assert.equal(newest.account_id, bob.account.id);
    assert.equal(newest.device_id, "bob-laptop");
    assert.equal(newest.type, 1);
    assert.equal(newest.digest, "aG1hYw3");
    assert.ok(newest.message_franking.length > 20);
    assert.ok(!Number.isNaN(Date.parse(newest.created_at)), "created_at is a time");
    assert.deepEqual(streamed, all.body[3]);

    const page = await get("/api/v1/crypto/encrypted_messages?limit=2", aliceDevice);
    assert.equal(page.body.length, 2);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1];
    assert.ok(next, "a next link");
    const rest = await get(new URL(next).pathname + new URL(next).search, aliceDevice);
    assert.deepEqual(
      rest.body.map((m: { body: string }) => m.body),
      ["Ym9keQ1", "Ym9keQ0"],
    );
    const since = await get(`/api/v1/crypto/encrypted_messages?min_id=${all.body[2].id}`, aliceDevice);
    assert.deepEqual(
      since.body.map((m: { id: string }) => m.id),
      [all.body[0].id, all.body[1].id],
    );
    assert.deepEqual((await get("/api/v1/crypto/encrypted_messages", bobDevice)).body, [], "only the recipient's");

    const cleared = await post("/api/v1/crypto/encrypted_messages/clear", aliceDevice, { up_to_id: all.body[1].id });
    assert.equal(cleared.status, 200);
    const left = await get("/api/v1/crypto/encrypted_messages", aliceDevice);
    assert.deepEqual(
      left.body.map((m: { id: string }) => m.id),
      [all.body[0].id],
    );
  });

  it("a new identity drops the device's keys and messages; revoking the token hides the device", async () => {
    await post("/api/v1/crypto/keys/upload", aliceDevice, { one_time_keys: aliceKeys.oneTimeKeys(2, "n") });
    const renewed = deviceKeys("alice-phone");
    const r = await post("/api/v1/crypto/keys/upload", aliceDevice, { device: renewed.device });
    assert.equal(r.status, 200);
    assert.deepEqual((await get("/api/v1/crypto/keys/count", aliceDevice)).body, { one_time_keys: 0 });
    assert.deepEqual((await get("/api/v1/crypto/encrypted_messages", aliceDevice)).body, []);

    const token = await s.ctx.repos.oauth.getTokenByHash((await import("../../src/lib/crypto.ts")).sha256(aliceDevice));
    assert.ok(token);
    await s.ctx.repos.oauth.revokeToken(token.id, new Date().toISOString());
    const q = await post("/api/v1/crypto/keys/query", bobDevice, { id: [alice.account.id] });
    assert.deepEqual(q.body, [{ account_id: alice.account.id, devices: [] }]);
  });

  it("lets two tokens of one account take the same device id at once: both succeed, the last one keeps it", async () => {
    const tokens = [await tokenFor(s.ctx, bob.user.id), await tokenFor(s.ctx, bob.user.id)];
    const keys = deviceKeys("bob-shared");
    const answers = await Promise.all(
      tokens.map((t) =>
        post("/api/v1/crypto/keys/upload", t, { device: keys.device, one_time_keys: keys.oneTimeKeys(1, "s") }),
      ),
    );
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200],
    );
    const counts = await Promise.all(tokens.map((t) => get("/api/v1/crypto/keys/count", t)));
    assert.deepEqual(counts.map((r) => r.status).sort(), [200, 404], "one device of that id remains");
  });
});
