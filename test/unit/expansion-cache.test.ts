import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, it } from "node:test";
import { Activity, Object as APObject, Create, Note, Person, Question } from "@fedify/vocab";
import jsonld from "@fedify/vocab-runtime/jsonld";
import { expansionStats, installExpansionCache } from "../../src/federation/expansion-cache.ts";
import { MASTODON_CONTEXT, PUBLIC } from "../helpers/fake-remote.ts";

const origin = "https://remote.example";

/** A Mastodon-shaped Create: mention, hashtag, custom emoji, attachment, reply, content map. */
function create(n: number): Record<string, unknown> {
  const note = {
    id: `${origin}/users/alice/statuses/${n}`,
    type: "Note",
    attributedTo: `${origin}/users/alice`,
    inReplyTo: `${origin}/users/bob/statuses/1`,
    content: `<p>Hello <a href="${origin}/@bob">@bob</a> #tag :blob: ${n}</p>`,
    contentMap: { en: `<p>Hello ${n}</p>` },
    published: "2026-11-22T10:00:00Z",
    sensitive: false,
    to: [PUBLIC],
    cc: [`${origin}/users/alice/followers`, `${origin}/users/bob`],
    tag: [
      { type: "Mention", href: `${origin}/users/bob`, name: "@bob@remote.example" },
      { type: "Hashtag", href: `${origin}/tags/tag`, name: "#tag" },
      {
        id: `${origin}/emojis/1`,
        type: "Emoji",
        name: ":blob:",
        icon: { type: "Image", mediaType: "image/png", url: `${origin}/blob.png` },
      },
    ],
    attachment: [
      { type: "Document", mediaType: "image/png", url: `${origin}/a.png`, name: "alt text", width: 10, height: 20 },
    ],
  };
  return {
    "@context": MASTODON_CONTEXT,
    id: `${note.id}/activity`,
    type: "Create",
    actor: `${origin}/users/alice`,
    published: note.published,
    to: note.to,
    cc: note.cc,
    object: note,
  };
}

const question = {
  "@context": MASTODON_CONTEXT,
  id: `${origin}/users/alice/statuses/99`,
  type: "Question",
  attributedTo: `${origin}/users/alice`,
  content: "<p>Which?</p>",
  endTime: "2026-11-30T00:00:00Z",
  oneOf: [
    { type: "Note", name: "a", replies: { type: "Collection", totalItems: 3 } },
    { type: "Note", name: "b", replies: { type: "Collection", totalItems: 1 } },
  ],
  to: [PUBLIC],
};

const publicKeyPem = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "pem" })
  .toString();

const person = {
  "@context": MASTODON_CONTEXT,
  id: `${origin}/users/alice`,
  type: "Person",
  preferredUsername: "alice",
  inbox: `${origin}/users/alice/inbox`,
  endpoints: { sharedInbox: `${origin}/inbox` },
  publicKey: { id: `${origin}/users/alice#main-key`, owner: `${origin}/users/alice`, publicKeyPem },
  attachment: [{ type: "PropertyValue", name: "site", value: "<a href='https://x.example'>x</a>" }],
  discoverable: true,
};

/** What each document parses to, as JSON-LD again (compact form, the object's own context). */
async function parseAll(): Promise<unknown[]> {
  const out: unknown[] = [];
  const json = create(1);
  // The same object parsed the ways Fedify's inbox does: as any object, then as an activity.
  const asObject = await APObject.fromJsonLd(json);
  const asActivity = await Activity.fromJsonLd(json);
  assert.ok(asObject instanceof Create);
  assert.ok(asActivity instanceof Create);
  const note = await asActivity.getObject();
  assert.ok(note instanceof Note);
  out.push(await asObject.toJsonLd(), await asActivity.toJsonLd(), await note.toJsonLd());
  const poll = await APObject.fromJsonLd(question);
  assert.ok(poll instanceof Question);
  out.push(await poll.toJsonLd());
  const actor = await APObject.fromJsonLd(person);
  assert.ok(actor instanceof Person);
  out.push(await actor.toJsonLd());
  return out;
}

describe("the JSON-LD expansion cache", () => {
  it("parses every document as without it, however often the same object is parsed", async () => {
    const before = await parseAll();
    installExpansionCache();
    const start = { ...expansionStats };
    const after = await parseAll();
    assert.deepEqual(after, before);
    // Parsed again: the same objects give the same results (no parse changed a cached expansion).
    assert.deepEqual(await parseAll(), before);
    assert.ok(expansionStats.reused > start.reused, "a second parse of the same object reuses its expansion");
    assert.ok(expansionStats.alreadyExpanded > start.alreadyExpanded, "expanded nodes are not expanded again");
  });

  it("hands each caller its own top-level node", async () => {
    installExpansionCache();
    const json = create(2);
    const loader = async (url: string) => {
      throw new Error(`no remote context expected: ${url}`);
    };
    const documentLoader = (await import("@fedify/vocab-runtime")).getDocumentLoader();
    const options = { documentLoader, keepFreeFloatingNodes: true };
    const [first] = (await jsonld.expand(json, options)) as Record<string, unknown>[];
    delete first["@type"];
    const [second] = (await jsonld.expand(json, options)) as Record<string, unknown>[];
    assert.deepEqual(second["@type"], ["https://www.w3.org/ns/activitystreams#Create"]);
    // Other options are not cached: they go to jsonld as they are.
    await assert.rejects(
      jsonld.expand({ "@context": "https://unknown.example/ctx", id: "x" }, { documentLoader: loader }),
    );
  });
});
