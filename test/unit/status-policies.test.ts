import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Status, Visibility } from "../../src/db/repositories/statuses.ts";
import { canPin, canReblog, canSeeStatus, reblogVisibility } from "../../src/policies/statuses.ts";

function status(visibility: Visibility, over: Partial<Status> = {}): Status {
  return {
    id: "1",
    uri: "u",
    url: null,
    accountId: "10",
    inReplyToId: null,
    inReplyToAccountId: null,
    reblogOfId: null,
    conversationId: "1",
    text: "",
    content: "",
    spoilerText: "",
    visibility,
    sensitive: false,
    language: "en",
    local: true,
    applicationId: null,
    pollId: null,
    editedAt: null,
    deletedAt: null,
    repliesCount: 0,
    reblogsCount: 0,
    favouritesCount: 0,
    quotesCount: 0,
    quotePolicy: null,
    createdAt: "",
    updatedAt: "",
    ...over,
  };
}

const stranger = { viewerId: "20", followsAuthor: false, mentioned: false };
const follower = { viewerId: "20", followsAuthor: true, mentioned: false };
const mentioned = { viewerId: "20", followsAuthor: false, mentioned: true };
const anonymous = { followsAuthor: false, mentioned: false };

describe("status policies", () => {
  it("who sees what", () => {
    for (const v of ["public", "unlisted"] as const) assert.ok(canSeeStatus(status(v), anonymous));
    assert.ok(!canSeeStatus(status("private"), anonymous));
    assert.ok(!canSeeStatus(status("private"), stranger));
    assert.ok(canSeeStatus(status("private"), follower));
    assert.ok(canSeeStatus(status("private"), mentioned));
    assert.ok(!canSeeStatus(status("direct"), follower));
    assert.ok(canSeeStatus(status("direct"), mentioned));
    assert.ok(canSeeStatus(status("direct"), { viewerId: "10", followsAuthor: false, mentioned: false }));
  });

  it("boosts and pins", () => {
    assert.ok(canReblog(status("public"), "20"));
    assert.ok(canReblog(status("unlisted"), "20"));
    assert.ok(!canReblog(status("private"), "20"));
    assert.ok(canReblog(status("private"), "10"));
    assert.ok(!canReblog(status("direct"), "10"));
    assert.ok(!canReblog(status("public", { reblogOfId: "5" }), "20"));
    assert.ok(canPin(status("private"), "10"));
    assert.ok(!canPin(status("direct"), "10"));
    assert.ok(!canPin(status("public"), "20"));
    assert.ok(!canPin(status("public", { reblogOfId: "5" }), "10"));
    assert.equal(reblogVisibility("public", status("private")), "private");
    assert.equal(reblogVisibility("unlisted", status("public")), "unlisted");
  });
});
