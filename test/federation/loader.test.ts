import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { verifyRequest } from "@fedify/fedify";
import { getDocumentLoader } from "@fedify/vocab-runtime";
import { type FakeActor, startFakeActor } from "../helpers/fake-actor.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("federation: document loaders through the guarded client", () => {
  let allowed: TestServer;
  let strict: TestServer;
  let remote: FakeActor;

  before(async () => {
    allowed = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    strict = await startTestServer({});
    remote = await startFakeActor();
    await allowed.createUser("alice");
  });
  after(async () => {
    await allowed.close();
    await strict.close();
    await remote.close();
  });

  const contextOf = async (s: TestServer) => {
    const federation = await s.ctx.federation();
    return federation.createContext(new URL(s.ctx.config.baseUrl), s.ctx);
  };

  it("fetches allowed private addresses over http, following redirects", async () => {
    const fctx = await contextOf(allowed);
    const actor = await fctx.lookupObject(`${remote.origin}/redirect`);
    assert.equal(actor?.id?.href, remote.actorId);
  });

  it("refuses private addresses the operator did not allow, without connecting", async () => {
    const fctx = await contextOf(strict);
    const before = remote.gets.length;
    const found = await fctx.lookupObject(`${remote.origin}/users/remote?strict`).catch(() => null);
    assert.equal(found, null);
    await assert.rejects(fctx.documentLoader(`${remote.origin}/users/remote?strict`));
    assert.equal(remote.gets.length, before, "no request reached the private address");
  });

  it("requires https for addresses outside the allow list", async () => {
    const fctx = await contextOf(allowed);
    // A public address over plain http: refused before any connection.
    await assert.rejects(fctx.documentLoader("http://93.184.216.34/users/x"), /Plain http/);
  });

  it("bounds the size of documents", async () => {
    const fctx = await contextOf(allowed);
    await assert.rejects(fctx.documentLoader(`${remote.origin}/big`));
  });

  it("serves Fedify's preloaded contexts without a request", async () => {
    const fctx = await contextOf(strict);
    const doc = await fctx.contextLoader("https://www.w3.org/ns/activitystreams");
    assert.ok(doc.document);
  });

  it("signs authenticated fetches with the actor's key", async () => {
    const fctx = await contextOf(allowed);
    const loader = await fctx.getDocumentLoader({ identifier: "alice" });
    const doc = await loader(`${remote.origin}/users/remote?signed`);
    assert.equal((doc.document as { id: string }).id, remote.actorId);
    const got = remote.gets.find((g) => g.url === "/users/remote?signed");
    assert.ok(got?.headers.signature, "the request carries a Signature header");
    const headers = new Headers();
    for (const [k, v] of Object.entries(got.headers)) if (typeof v === "string") headers.set(k, v);
    const base = allowed.ctx.config.baseUrl;
    const contexts = getDocumentLoader();
    const loopback = async (url: string) => {
      if (!url.startsWith(base)) return contexts(url);
      const r = await fetch(url, { headers: { accept: "application/activity+json" } });
      return { contextUrl: null, document: await r.json(), documentUrl: url };
    };
    const key = await verifyRequest(new Request(`${remote.origin}${got.url}`, { headers }), {
      documentLoader: loopback,
      contextLoader: contexts,
    });
    assert.equal(key?.ownerId?.href, `${base}/users/alice`);
  });

  it("signs the documents it fetches with the instance actor's key", async () => {
    const fctx = await contextOf(allowed);
    await fctx.documentLoader(`${remote.origin}/users/remote?by-instance`);
    const got = remote.gets.find((g) => g.url === "/users/remote?by-instance");
    const signature = String(got?.headers.signature ?? "");
    assert.match(signature, new RegExp(`keyId="${allowed.ctx.config.baseUrl}/actor#main-key"`));
  });
});
