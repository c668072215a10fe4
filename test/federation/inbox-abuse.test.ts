import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import { signJsonLd } from "@fedify/fedify";
import { preloadedContexts } from "@fedify/vocab-runtime";
import { type FakeActor, FakeRemote, MASTODON_CONTEXT, postSigned } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** A JSON-LD context served on loopback that counts its fetches: JSON-LD work fetches it. */
async function contextSpy(): Promise<{ url: string; fetches: () => number; close: () => Promise<void> }> {
  let fetches = 0;
  const server: Server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { "content-type": "application/ld+json" });
    res.end(JSON.stringify({ "@context": { spy: "https://spy.example/ns#spy" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/context.jsonld`,
    fetches: () => fetches,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The JSON-LD contexts Fedify ships (the Mastodon context's URLs are all among them). */
async function loadContext(url: string): Promise<unknown> {
  const document = preloadedContexts[url];
  if (!document) throw new Error(`no context ${url} offline`);
  return document;
}

function nested(levels: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = { type: "Note", content: value };
  return value;
}

describe("inbox: abusive requests are refused before JSON-LD work", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let spy: Awaited<ReturnType<typeof contextSpy>>;
  let bob: FakeActor;
  let inbox: string;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    spy = await contextSpy();
    bob = await remote.addActor("bob");
    await s.createUser("alice");
    inbox = `${s.url}/inbox`;
  });
  after(async () => {
    await s?.close();
    await remote?.close();
    await spy?.close();
  });

  const stored = async (uri: string) => (await s.ctx.repos.statuses.getByUri(uri)) !== undefined;

  /** A Create of a note by bob with `mentions` Mention tags, its context including the spy's. */
  const bigCreate = (id: string, mentions: number) => {
    const tag = Array.from({ length: mentions }, (_, i) => ({
      type: "Mention",
      href: `${remote.origin}/u/${i}`,
      name: `@u${i}`,
    }));
    const activity = remote.create(bob, remote.note(bob, id, { tag }));
    activity["@context"] = [...MASTODON_CONTEXT, spy.url];
    return activity;
  };

  it("answers an unsigned 990 KB Create with 401 without reading it as JSON-LD", async () => {
    const activity = bigCreate("unsigned-big", 12_500);
    const body = JSON.stringify(activity);
    assert.ok(body.length > 900_000 && body.length < 1024 * 1024, `body of ${body.length} bytes`);
    const res = await remote.send(inbox, activity, { unsigned: true });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: "Request not signed" });
    // The connection is closed rather than the megabyte read to its end.
    assert.equal(res.headers.get("connection"), "close");
    // Not even parsed as JSON: a body that is not JSON is refused the same way.
    const garbage = await remote.send(inbox, activity, { unsigned: true, rawBody: "{not json" });
    assert.equal(garbage.status, 401);
    // The same answer at a personal inbox, with a trailing slash or a query.
    for (const path of ["/users/alice/inbox", "/inbox/", "/inbox?page=1"]) {
      const other = await remote.send(`${s.url}${path}`, activity, { unsigned: true });
      assert.equal(other.status, 401, path);
      assert.deepEqual(await other.json(), { error: "Request not signed" }, path);
    }
    assert.equal(spy.fetches(), 0, "the activity's JSON-LD context was never loaded");
    assert.equal(await stored(`${bob.id}/statuses/unsigned-big`), false);
  });

  it("answers a forged, misnamed or malformed signature with 401 before any JSON-LD work", async () => {
    const activity = bigCreate("forged-big", 10);
    const res = await remote.send(inbox, activity, { tamper: (body) => body.replace("Hello", "Pay me") });
    assert.equal(res.status, 401);
    const signed = await remote.sign(inbox, activity);
    const signature = signed.headers.get("signature") ?? "";
    signed.headers.set("signature", signature.replace(/keyId="[^"]+"/, 'keyId="not a url"'));
    assert.equal((await postSigned(signed)).status, 401);
    const malformed = await remote.sign(inbox, activity);
    const value = malformed.headers.get("signature") ?? "";
    malformed.headers.set("signature", value.replace(/signature="[^"]+"/, 'signature="=not base64!"'));
    assert.equal((await postSigned(malformed)).status, 401);
    assert.equal(spy.fetches(), 0);
  });

  it("answers a body nested 1,000 levels deep with 401 unsigned and 400 signed, never 500", async () => {
    const activity = remote.activity(bob, "Create", { object: nested(1000) });
    const unsigned = await remote.send(inbox, activity, { unsigned: true });
    assert.equal(unsigned.status, 401);
    const signed = await remote.send(inbox, activity);
    assert.equal(signed.status, 400);
    assert.deepEqual(await signed.json(), { error: "The activity is nested too deeply" });
  });

  it("refuses a signed activity with too many tags or attachments with 400", async () => {
    const tags = await remote.send(inbox, bigCreate("many-tags", 501));
    assert.equal(tags.status, 400);
    assert.deepEqual(await tags.json(), { error: "The activity has too many tags" });
    const attachment = Array.from({ length: 65 }, (_, i) => ({
      type: "Document",
      mediaType: "image/png",
      url: `${remote.origin}/media/${i}.png`,
    }));
    const media = await remote.send(inbox, remote.create(bob, remote.note(bob, "many-media", { attachment })));
    assert.equal(media.status, 400);
    assert.deepEqual(await media.json(), { error: "The activity has too many attachments" });
    assert.equal(spy.fetches(), 0);
    assert.equal(await stored(`${bob.id}/statuses/many-tags`), false);
    assert.equal(await stored(`${bob.id}/statuses/many-media`), false);
  });

  it("takes a forwarded activity whose actor signed it (Linked Data signature), refuses one unsigned by its actor", async () => {
    const carol = await remote.addActor("carol");
    const reply = remote.create(carol, remote.note(carol, "forwarded"));
    const signed = await signJsonLd(reply, carol.keys.privateKey, new URL(carol.keyId), {
      contextLoader: async (url) => ({ contextUrl: null, documentUrl: url, document: await loadContext(url) }),
    });
    // bob's server forwards it: the HTTP signature is bob's, the activity carol's.
    assert.equal((await remote.send(inbox, signed as Record<string, unknown>, { signer: bob })).status, 202);
    await s.settle({ delayed: false });
    assert.equal(await stored(`${carol.id}/statuses/forwarded`), true);
    const bare = remote.create(carol, remote.note(carol, "not-vouched"));
    const refused = await remote.send(inbox, bare, { signer: bob });
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), { error: "The signer and the actor do not match" });
    assert.equal(await stored(`${carol.id}/statuses/not-vouched`), false);
  });

  it("still takes a signed activity within the bounds, its JSON-LD context loaded", async () => {
    const activity = bigCreate("within-bounds", 40);
    const res = await remote.send(inbox, activity);
    assert.equal(res.status, 202);
    await s.settle({ delayed: false });
    assert.equal(await stored(`${bob.id}/statuses/within-bounds`), true);
    assert.ok(spy.fetches() > 0, "the spy would have seen JSON-LD work");
  });
});
