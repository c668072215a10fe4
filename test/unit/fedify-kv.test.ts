import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Temporal } from "@js-temporal/polyfill";
import { createDatabase } from "../../src/db/database.ts";
import { KvRepository } from "../../src/db/repositories/kv.ts";
import { DatabaseKvStore, ttlMilliseconds } from "../../src/infra/kv/fedify-kv.ts";

async function store() {
  const d = createDatabase({ dataDir: "/tmp", sqliteFile: ":memory:" });
  await d.migrate();
  const repo = new KvRepository(d.db);
  return { d, repo, kv: new DatabaseKvStore(repo) };
}

const keyOf = ["_fedify", "publicKey", "https://remote.example/users/a#main-key"] as const;
const encoded = `_fedify/publicKey/${encodeURIComponent(keyOf[2])}`;

describe("Fedify's key-value store on the database", () => {
  it("adds up a TTL's fields as Temporal's total does", () => {
    for (const d of [
      { minutes: 10 },
      { days: 1 },
      { hours: 36 },
      { hours: 1, minutes: 30, seconds: 5, milliseconds: 7 },
      { seconds: 1, microseconds: 500, nanoseconds: 250_000 },
    ]) {
      const ttl = Temporal.Duration.from(d);
      assert.equal(ttlMilliseconds(ttl), ttl.total("millisecond"), JSON.stringify(d));
    }
    // Weeks need a starting point, as in Temporal itself.
    assert.throws(() => ttlMilliseconds(Temporal.Duration.from({ weeks: 1 })), RangeError);
  });

  it("stores, reads, compares-and-swaps and deletes JSON values", async () => {
    const { d, kv } = await store();
    try {
      assert.equal(await kv.get(["a", "b"]), undefined);
      await kv.set(["a", "b"], { n: 1 });
      assert.deepEqual(await kv.get(["a", "b"]), { n: 1 });
      assert.equal(await kv.cas(["a", "b"], { n: 2 }, { n: 3 }), false);
      assert.equal(await kv.cas(["a", "b"], { n: 1 }, { n: 3 }), true);
      assert.deepEqual(await kv.get(["a", "b"]), { n: 3 });
      await kv.delete(["a", "b"]);
      assert.equal(await kv.get(["a", "b"]), undefined);
    } finally {
      await d.close();
    }
  });

  it("keeps public keys in memory: the same object each time, a copy of what was stored, forgotten when changed", async () => {
    const { d, repo, kv } = await store();
    try {
      const key = { id: keyOf[2], publicKeyPem: "PEM" };
      await kv.set([...keyOf], key);
      const first = await kv.get([...keyOf]);
      assert.deepEqual(first, key);
      assert.notEqual(first, key, "not the caller's object");
      assert.equal(await kv.get([...keyOf]), first, "the same object again");
      // Read from memory: a row removed behind the store's back is still answered...
      await repo.delete(encoded);
      assert.deepEqual(await kv.get([...keyOf]), key);
      // ...but a write through the store replaces it, and a delete forgets it.
      await kv.set([...keyOf], { ...key, publicKeyPem: "NEW" });
      assert.deepEqual(await kv.get([...keyOf]), { ...key, publicKeyPem: "NEW" });
      await kv.delete([...keyOf]);
      assert.equal(await kv.get([...keyOf]), undefined);
      // Other entries are always read from the database.
      await kv.set(["_fedify", "activityIdempotence", "x"], true);
      await repo.delete("_fedify/activityIdempotence/x");
      assert.equal(await kv.get(["_fedify", "activityIdempotence", "x"]), undefined);
    } finally {
      await d.close();
    }
  });

  it("remembers a key no longer than its own time to live", async () => {
    const { d, kv } = await store();
    try {
      const ttl = Temporal.Duration.from({ milliseconds: 30 });
      await kv.set([...keyOf], null, { ttl });
      assert.equal(await kv.get([...keyOf]), null);
      await new Promise((resolve) => setTimeout(resolve, 60));
      assert.equal(await kv.get([...keyOf]), undefined);
    } finally {
      await d.close();
    }
  });
});
