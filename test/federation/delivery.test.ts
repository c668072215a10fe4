import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { verifyRequest } from "@fedify/fedify";
import { Create, Note, PUBLIC_COLLECTION } from "@fedify/vocab";
import { getDocumentLoader } from "@fedify/vocab-runtime";
import type { StoreJobQueue } from "../../src/infra/queue/runner.ts";
import { type FakeActor, startFakeActor } from "../helpers/fake-actor.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const LOOPBACK = { ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" };

describe("federation: queued delivery and signed fetches", () => {
  let s: TestServer;
  let remote: FakeActor;
  let alice: TestUser;
  let base: string;

  before(async () => {
    s = await startTestServer(LOOPBACK);
    remote = await startFakeActor();
    base = s.ctx.config.baseUrl;
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s.close();
    await remote.close();
  });

  // JSON-LD contexts come preloaded with Fedify (no network in tests).
  const contexts = getDocumentLoader();
  /** Loads documents from the test server itself (the verifier fetches alice's key). */
  const loopbackLoader = async (url: string) => {
    if (!url.startsWith(base)) return contexts(url);
    const r = await fetch(url, { headers: { accept: "application/activity+json" } });
    return { contextUrl: null, document: await r.json(), documentUrl: url };
  };

  const send = async (text: string) => {
    const federation = await s.ctx.federation();
    const fctx = federation.createContext(new URL(base), s.ctx);
    const id = `${base}/users/alice/statuses/${Date.now()}`;
    await fctx.sendActivity(
      { identifier: "alice" },
      { id: new URL(remote.actorId), inboxId: new URL(remote.inbox) },
      new Create({
        id: new URL(`${id}/activity`),
        actor: fctx.getActorUri("alice"),
        object: new Note({
          id: new URL(id),
          content: text,
          attribution: fctx.getActorUri("alice"),
          to: PUBLIC_COLLECTION,
        }),
        to: PUBLIC_COLLECTION,
      }),
    );
  };

  it("delivers through the job queue with a signature made with the actor's key", async () => {
    await send("hello");
    // Queued, not sent inline: the job shows in the queue's state.
    const names = (await s.ctx.queue.state()).counts.map((c) => c.name);
    assert.ok(
      names.some((n) => n.startsWith("federation.")),
      JSON.stringify(names),
    );
    await s.settle();
    assert.equal(remote.received.length, 1);
    const got = remote.received[0];
    const body = JSON.parse(got.body);
    assert.equal(body.type, "Create");
    assert.equal(body.actor, `${base}/users/alice`);
    assert.equal(body.object.content, "hello");
    const headers = new Headers();
    for (const [k, v] of Object.entries(got.headers)) if (typeof v === "string") headers.set(k, v);
    const key = await verifyRequest(
      new Request(`${remote.origin}/inbox`, { method: "POST", headers, body: got.body }),
      {
        documentLoader: loopbackLoader,
        contextLoader: contexts,
      },
    );
    assert.ok(key, "the signature verifies against alice's published key");
    assert.equal(key.ownerId?.href, `${base}/users/alice`);
    // A forged body does not verify with the same headers.
    const forged = await verifyRequest(
      new Request(`${remote.origin}/inbox`, { method: "POST", headers, body: got.body.replace("hello", "HELLO") }),
      { documentLoader: loopbackLoader, contextLoader: contexts },
    );
    assert.equal(forged, null);
  });

  it("retries a failed delivery as a job until the inbox accepts it, never knocking twice on a 500", async () => {
    remote.received.length = 0;
    remote.failNext.push(500);
    await send("again");
    await s.settle({ delayed: false });
    // One request: a 500 says nothing of the signature, so no second knock with the other spec.
    assert.equal(remote.received.length, 1);
    const state = await s.ctx.queue.state();
    const retry = state.failing.find((f) => f.name === "federation.outbox" && f.state !== "dead");
    assert.ok(retry, JSON.stringify(state));
    assert.match(retry.lastError ?? "", /500/);
    assert.ok(retry.runAt.getTime() > Date.now() + 10_000, "the retry waits for Mastodon's schedule");
    // Its retry comes due now (taken as if the clock had moved on, then put back due at once).
    const store = (s.ctx.queue as StoreJobQueue).store;
    const later = Date.now() + 60_000;
    const [taken] = await store.claim("test-clock", ["federation.outbox"], 1, later, later + 1000);
    assert.equal(taken?.id, retry.id);
    await store.retry("test-clock", retry.id, Date.now(), "moved on by the test");
    await s.settle();
    assert.equal(remote.received.length, 2);
    assert.equal(JSON.parse(remote.received[1].body).object.content, "again");
  });

  it("knocks again with the other signature spec when the first is refused, and keeps the one taken", async () => {
    const specOf = (i: number) => (remote.received[i].headers["signature-input"] ? "rfc9421" : "cavage");
    remote.received.length = 0;
    remote.failNext.push(401);
    await send("refused once");
    await s.settle();
    assert.equal(remote.received.length, 2);
    const [first, second] = [specOf(0), specOf(1)];
    assert.notEqual(first, second);
    // The next delivery knocks once, with the spec taken.
    await send("known spec");
    await s.settle();
    assert.equal(remote.received.length, 3);
    assert.equal(specOf(2), second);
    assert.equal(JSON.parse(remote.received[2].body).object.content, "known spec");
  });

  it("serves a followers-only status only to a signed fetch from a follower's server", async () => {
    const r = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "for followers", visibility: "private" },
    });
    const uri = r.body.uri as string;
    const ask = async (req?: Request) => {
      const res = await fetch(req ?? new Request(uri, { headers: { accept: "application/activity+json" } }));
      const text = await res.text();
      return { status: res.status, text };
    };
    assert.equal((await ask()).status, 404);
    // Signed, but nobody on that server follows alice.
    assert.equal((await ask(await remote.signedGet(uri))).status, 404);
    // A follower on the remote server: now its server may fetch it.
    const now = new Date().toISOString();
    const followerId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: followerId,
      username: "remote",
      domain: new URL(remote.origin).host,
      uri: remote.actorId,
      inbox_url: remote.inbox,
      created_at: now,
      updated_at: now,
    });
    await s.ctx.repos.follows.insert({
      id: s.ctx.ids.next(),
      account_id: followerId,
      target_account_id: alice.account.id,
      created_at: now,
    });
    const ok = await ask(await remote.signedGet(uri));
    assert.equal(ok.status, 200, ok.text);
    const note = JSON.parse(ok.text);
    assert.equal(note.id, uri);
    assert.equal(note.content.includes("for followers"), true);
    // Still nothing for an unsigned fetch.
    assert.equal((await ask()).status, 404);
  });

  it("delivers to followers through the followers collection (remote inboxes)", async () => {
    remote.received.length = 0;
    const federation = await s.ctx.federation();
    const fctx = federation.createContext(new URL(base), s.ctx);
    await fctx.sendActivity(
      { identifier: "alice" },
      "followers",
      new Create({
        id: new URL(`${base}/users/alice/statuses/1/activity`),
        actor: fctx.getActorUri("alice"),
        object: new Note({ id: new URL(`${base}/users/alice/statuses/1`), content: "to followers" }),
      }),
    );
    await s.settle();
    assert.equal(remote.received.length, 1);
    assert.equal(JSON.parse(remote.received[0].body).object.content, "to followers");
  });
});
