import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { INBOX_LIMITS, shapeProblem } from "../../src/federation/inbox/shape.ts";

/** `levels` objects or arrays inside one another. */
const deep = (levels: number, wrap: (v: unknown) => unknown) => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = wrap(v);
  return v;
};

describe("inbox activity shape bounds", () => {
  it("passes a Mastodon-shaped Create", () => {
    const create = {
      "@context": [
        "https://www.w3.org/ns/activitystreams",
        { toot: "http://joinmastodon.org/ns#", featured: { "@id": "toot:featured", "@type": "@id" } },
      ],
      type: "Create",
      object: {
        type: "Note",
        tag: [{ type: "Emoji", icon: { type: "Image", url: "https://x.example/e.png" } }],
        attachment: [{ type: "Document", url: "https://x.example/a.png" }],
        replies: { type: "Collection", first: { type: "CollectionPage", items: ["https://x.example/1"] } },
      },
    };
    assert.equal(shapeProblem(create), null);
  });

  it("bounds nesting in objects and arrays alike, at the limit exactly", () => {
    assert.equal(shapeProblem(deep(INBOX_LIMITS.depth, (v) => ({ v }))), null);
    assert.equal(shapeProblem(deep(INBOX_LIMITS.depth + 1, (v) => ({ v }))), "The activity is nested too deeply");
    assert.equal(shapeProblem(deep(100_000, (v) => [v])), "The activity is nested too deeply");
  });

  it("sums tags and attachments over every object", () => {
    const half = Array.from({ length: INBOX_LIMITS.tags / 2 }, () => ({ type: "Mention" }));
    assert.equal(shapeProblem({ tag: half, object: { tag: half } }), null);
    assert.equal(shapeProblem({ tag: half, object: { tag: [...half, {}] } }), "The activity has too many tags");
    const media = Array.from({ length: INBOX_LIMITS.attachments }, () => ({}));
    assert.equal(shapeProblem({ object: { attachment: media } }), null);
    assert.equal(
      shapeProblem({ attachment: {}, object: { attachment: media } }),
      "The activity has too many attachments",
    );
  });

  it("bounds the number of values", () => {
    assert.equal(
      shapeProblem({ cc: Array.from({ length: INBOX_LIMITS.values }, () => "x") }),
      "The activity has too many values",
    );
    assert.equal(shapeProblem({ cc: Array.from({ length: 1000 }, () => "x") }), null);
  });
});
