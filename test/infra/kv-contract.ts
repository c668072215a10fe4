import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KvKey, KvStore } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";

/** One KvStore backend under test; `close` drops its data. */
export interface KvBackend {
  kv: KvStore;
  /** A second store on the same data (another process), where the backend has one. */
  other?: KvStore;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * What Fedify needs of a KvStore's compare-and-swap, as its own MemoryKvStore does it: values are
 * compared as values (an object read back and rebuilt with its keys in another order still
 * matches), undefined means absent on both sides, and an expired entry is absent.
 */
export function kvContract(name: string, open: () => Promise<KvBackend>): void {
  describe(`KvStore contract: ${name}`, () => {
    const withStore = async (f: (b: KvBackend) => Promise<void>) => {
      const b = await open();
      try {
        await f(b);
      } finally {
        await b.close();
      }
    };
    const cas = (kv: KvStore) => {
      assert.ok(kv.cas, "the store has cas");
      return kv.cas.bind(kv);
    };

    it("swaps when the expected object equals the stored one, whatever its key order", () =>
      withStore(async ({ kv }) => {
        const key: KvKey = ["_fedify", "circuit", "peer.example"];
        await kv.set(key, { state: "open", failures: ["a", "b"], opened: "t1", version: 1 });
        // What Fedify's circuit breaker passes back: the same state with its keys reordered.
        const read = { state: "open", failures: ["a", "b"], version: 1, opened: "t1" };
        assert.equal(await cas(kv)(key, read, { state: "half-open", failures: [], halfOpened: "t2" }), true);
        assert.deepEqual(await kv.get(key), { state: "half-open", failures: [], halfOpened: "t2" });
        // A stale expectation (the old state, a different list) fails and changes nothing.
        assert.equal(await cas(kv)(key, read, { state: "closed", failures: [] }), false);
        assert.equal(await cas(kv)(key, { state: "half-open", failures: ["x"], halfOpened: "t2" }, 1), false);
        assert.deepEqual(await kv.get(key), { state: "half-open", failures: [], halfOpened: "t2" });
      }));

    it("treats undefined as absent: creates only when absent, deletes when the new value is undefined", () =>
      withStore(async ({ kv }) => {
        const key: KvKey = ["cas", "absent"];
        assert.equal(await cas(kv)(key, { any: 1 }, { n: 1 }), false);
        assert.equal(await kv.get(key), undefined);
        assert.equal(await cas(kv)(key, undefined, { n: 1 }), true);
        assert.equal(await cas(kv)(key, undefined, { n: 2 }), false, "no longer absent");
        assert.equal(await cas(kv)(key, { n: 1 }, undefined), true);
        assert.equal(await kv.get(key), undefined);
        assert.equal(await cas(kv)(key, undefined, "text"), true);
        assert.equal(await cas(kv)(key, "text", null), true);
        assert.equal(await kv.get(key), null);
        assert.equal(await cas(kv)(key, undefined, 1), false, "null is a value, not absence");
      }));

    it("sees an expired entry as absent", () =>
      withStore(async ({ kv }) => {
        const key: KvKey = ["cas", "expiring"];
        await kv.set(key, { n: 1 }, { ttl: Temporal.Duration.from({ milliseconds: 30 }) });
        await sleep(80);
        assert.equal(await cas(kv)(key, { n: 1 }, { n: 2 }), false);
        assert.equal(await cas(kv)(key, undefined, { n: 3 }), true);
        assert.deepEqual(await kv.get(key), { n: 3 });
      }));

    it("lets one of two writers that read the same value win", () =>
      withStore(async ({ kv, other }) => {
        const key: KvKey = ["cas", "race"];
        await kv.set(key, { n: 0 });
        const second = other ?? kv;
        const results = await Promise.all([
          ...Array.from({ length: 4 }, (_, i) => cas(kv)(key, { n: 0 }, { n: i + 1 })),
          ...Array.from({ length: 4 }, (_, i) => cas(second)(key, { n: 0 }, { n: i + 5 })),
        ]);
        assert.equal(results.filter(Boolean).length, 1, JSON.stringify(results));
      }));
  });
}
