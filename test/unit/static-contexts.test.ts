import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DocumentLoader } from "@fedify/vocab-runtime";
import jsonld from "@fedify/vocab-runtime/jsonld";
import { withStaticContexts } from "../../src/federation/loader.ts";
import { MASTODON_CONTEXT } from "../helpers/fake-remote.ts";

const note = (n: number) => ({
  "@context": MASTODON_CONTEXT,
  id: `https://remote.example/users/a/statuses/${n}`,
  type: "Note",
  content: "<p>Hi</p>",
  sensitive: false,
  attributedTo: "https://remote.example/users/a",
});

describe("preloaded JSON-LD contexts tagged static", () => {
  it("are loaded once for every expansion that follows, which expands as before; other URLs go to the loader", async () => {
    const asked: string[] = [];
    const remote = { "@context": { ex: "https://custom.example/ns#", thing: "ex:thing" } };
    const inner: DocumentLoader = async (url) => {
      asked.push(url);
      return { contextUrl: null, document: remote, documentUrl: url };
    };
    const wrapped = withStaticContexts(inner);
    const seen: string[] = [];
    const documentLoader: DocumentLoader = (url, options) => {
      seen.push(url);
      return wrapped(url, options);
    };
    const expand = (doc: unknown) => jsonld.expand(doc as object, { documentLoader, keepFreeFloatingNodes: true });
    const first = await expand(note(1));
    const loadsOfFirst = seen.length;
    assert.ok(loadsOfFirst >= 2, "the ActivityStreams and security contexts were loaded");
    assert.equal(asked.length, 0, "preloaded contexts are not fetched");
    const second = await expand(note(1));
    await expand(note(2));
    assert.equal(seen.length, loadsOfFirst, "later expansions reuse the resolved contexts");
    assert.deepEqual(second, first);
    assert.deepEqual((first[0] as Record<string, unknown>)["@type"], ["https://www.w3.org/ns/activitystreams#Note"]);
    // A context that is not preloaded is the loader's, every time (no static tag: it may change).
    const custom = { "@context": "https://custom.example/context", id: "https://remote.example/x", thing: "v" };
    const expanded = (await expand(custom)) as Record<string, unknown>[];
    await expand(custom);
    assert.deepEqual(asked, ["https://custom.example/context", "https://custom.example/context"]);
    assert.deepEqual(expanded[0]["https://custom.example/ns#thing"], [{ "@value": "v" }]);
  });
});
