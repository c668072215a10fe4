import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asArray, asHash, asHashList, setNested } from "../../src/http/params.ts";

describe("Rails-style parameter keys", () => {
  it("builds nested objects and arrays", () => {
    const t: Record<string, unknown> = {};
    setNested(t, "poll[options][]", "a");
    setNested(t, "poll[options][]", "b");
    setNested(t, "poll[expires_in]", "300");
    setNested(t, "fields_attributes[0][name]", "n");
    setNested(t, "fields_attributes[0][value]", "v");
    setNested(t, "fields_attributes[1][name]", "m");
    setNested(t, "id[]", "1");
    setNested(t, "plain", "x");
    assert.deepEqual(t, {
      poll: { options: ["a", "b"], expires_in: "300" },
      fields_attributes: { "0": { name: "n", value: "v" }, "1": { name: "m" } },
      id: ["1"],
      plain: "x",
    });
  });

  it("never writes through __proto__", () => {
    const t: Record<string, unknown> = {};
    setNested(t, "__proto__[polluted]", "yes");
    setNested(t, "a[__proto__][polluted]", "yes");
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it("asArray accepts arrays, numbered objects and single values", () => {
    assert.deepEqual(asArray(["a"]), ["a"]);
    assert.deepEqual(asArray({ "1": "b", "0": "a" }), ["a", "b"]);
    assert.deepEqual(asArray("x"), ["x"]);
    assert.equal(asArray(undefined), undefined);
  });

  it("asHash and asHashList ignore scalars where Rails expects a hash or a list of hashes", () => {
    assert.deepEqual(asHash({ a: "1" }), { a: "1" });
    for (const v of ["undefined", "", 1, true, null, undefined, ["a"], new File([], "f")]) {
      assert.equal(asHash(v), undefined, String(v));
      if (!Array.isArray(v)) assert.equal(asHashList(v), undefined, String(v));
    }
    assert.deepEqual(asHashList({ "1": { n: "b" }, "0": { n: "a" } }), [{ n: "a" }, { n: "b" }]);
    assert.deepEqual(asHashList({ n: "a" }), [{ n: "a" }]);
    assert.deepEqual(asHashList(["x", { n: "a" }, null]), [{ n: "a" }]);
    assert.equal(asHashList(["x", 2]), undefined);
    assert.deepEqual(asHashList([]), []);
  });
});
