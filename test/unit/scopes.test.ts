import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ALL_SCOPES, grants, grantsAny, isKnownScope, isSubset, parseScopes } from "../../src/lib/scopes.ts";

describe("scope hierarchy", () => {
  it("read and write cover their granular scopes, and only those", () => {
    assert.ok(grants(["read"], "read:statuses"));
    assert.ok(grants(["write"], "write:media"));
    assert.ok(!grants(["read"], "write:statuses"));
    assert.ok(!grants(["write"], "read:accounts"));
    assert.ok(!grants(["read"], "push"));
    assert.ok(!grants(["read"], "profile"));
  });

  it("the deprecated follow scope covers blocks, follows and mutes", () => {
    for (const s of ["read:blocks", "read:follows", "read:mutes", "write:blocks", "write:follows", "write:mutes"]) {
      assert.ok(grants(["follow"], s), s);
    }
    assert.ok(!grants(["follow"], "read:statuses"));
    assert.ok(!grants(["follow"], "write:statuses"));
  });

  it("admin scopes cover their own granular scopes, and plain read/write never reach admin", () => {
    assert.ok(grants(["admin:read"], "admin:read:accounts"));
    assert.ok(grants(["admin:write"], "admin:write:domain_blocks"));
    assert.ok(!grants(["admin:read"], "admin:write:accounts"));
    assert.ok(!grants(["read"], "admin:read:accounts"));
    assert.ok(!grants(["write"], "admin:write"));
  });

  it("a granular scope does not grant its parent", () => {
    assert.ok(!grants(["read:statuses"], "read"));
    assert.ok(grantsAny(["read:accounts"], ["profile", "read:accounts"]));
    assert.ok(!grantsAny(["read:statuses"], ["profile", "read:accounts"]));
  });

  it("knows every scope and nothing else", () => {
    assert.ok(ALL_SCOPES.includes("read:bookmarks"));
    assert.ok(ALL_SCOPES.includes("admin:write:canonical_email_blocks"));
    assert.ok(isKnownScope("profile"));
    assert.ok(!isKnownScope("admin"));
    assert.ok(isKnownScope("crypto"));
    assert.ok(!grants(["read", "write"], "crypto"));
    assert.ok(!isKnownScope("read:everything"));
  });

  it("parses space- and plus-separated scope strings without duplicates", () => {
    assert.deepEqual(parseScopes("read  write+follow read"), ["read", "write", "follow"]);
    assert.deepEqual(parseScopes(""), []);
    assert.deepEqual(parseScopes(undefined), []);
  });

  it("checks that requested scopes are within an application's", () => {
    assert.ok(isSubset(["read:statuses", "write"], ["read", "write"]));
    assert.ok(!isSubset(["push"], ["read", "write"]));
  });
});
