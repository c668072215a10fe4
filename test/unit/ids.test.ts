import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IdGenerator, idAtTime, isId } from "../../src/lib/ids.ts";

describe("Snowflake IDs", () => {
  it("are strictly increasing within one process, even within one millisecond", () => {
    const g = new IdGenerator();
    let prev = 0n;
    for (let i = 0; i < 5000; i++) {
      const id = BigInt(g.next());
      assert.ok(id > prev, `id ${i} not increasing`);
      prev = id;
    }
  });

  it("sort by time and stay above 2^53 so SQLite returns them as strings", () => {
    const g = new IdGenerator();
    const old = g.next(new Date("2020-01-01T00:00:00Z"));
    const now = g.next();
    assert.ok(BigInt(old) < BigInt(now));
    assert.ok(BigInt(old) > 2n ** 53n);
    assert.ok(BigInt(idAtTime(new Date("2020-01-01T00:00:01Z"))) > BigInt(old));
  });

  it("isId accepts 64-bit decimal strings only", () => {
    assert.ok(isId("109876543210987654"));
    assert.ok(isId("1"));
    assert.ok(!isId("abc"));
    assert.ok(!isId("-1"));
    assert.ok(!isId("99999999999999999999"));
    assert.ok(!isId("1.5"));
    assert.ok(!isId(""));
  });
});
