import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type FakeActor, FakeRemote, MASTODON_CONTEXT } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ALLOW = { ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" };
const AS_JSON = { accept: "application/activity+json" };

/** The terms Mastodon 4.5 puts in the context of quoting Notes (FEP-044f and the older forms). */
const QUOTE_CONTEXT = [
  ...MASTODON_CONTEXT,
  {
    quote: { "@id": "https://w3id.org/fep/044f#quote", "@type": "@id" },
    quoteUri: "http://fedibird.com/ns#quoteUri",
    _misskey_quote: "https://misskey-hub.net/ns#_misskey_quote",
    quoteUrl: "as:quoteUrl",
    quoteAuthorization: { "@id": "https://w3id.org/fep/044f#quoteAuthorization", "@type": "@id" },
    QuoteAuthorization: "https://w3id.org/fep/044f#QuoteAuthorization",
    QuoteRequest: "https://w3id.org/fep/044f#QuoteRequest",
    gts: "https://gotosocial.org/ns#",
    interactingObject: { "@id": "gts:interactingObject", "@type": "@id" },
    interactionTarget: { "@id": "gts:interactionTarget", "@type": "@id" },
    interactionPolicy: { "@id": "gts:interactionPolicy", "@type": "@id" },
    canQuote: { "@id": "gts:canQuote", "@type": "@id" },
    automaticApproval: { "@id": "gts:automaticApproval", "@type": "@id" },
    manualApproval: { "@id": "gts:manualApproval", "@type": "@id" },
  },
];

/**
 * Quote posts across servers (FEP-044f as Mastodon 4.5 speaks it): two Gannet servers, A and B,
 * and a fake remote server sending the older forms and forged stamps.
 */
describe("quote posts over ActivityPub", () => {
  let a: TestServer;
  let b: TestServer;
  let remote: FakeRemote;
  let mallory: FakeActor;
  let alice: TestUser; // on A
  let bob: TestUser; // on B

  async function settle() {
    for (let i = 0; i < 3; i++) {
      await a.settle({ delayed: false });
      await b.settle({ delayed: false });
    }
  }

  async function api(s: TestServer, user: TestUser, path: string, json?: unknown, method = "POST") {
    const res = await s.request(path, { method, token: user.token, json });
    assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** `on`'s id of a post at `uri`, fetched as a signed-in user's search does. */
  async function resolve(on: TestServer, user: TestUser, uri: string): Promise<string> {
    const r = await on.request(`/api/v2/search?q=${encodeURIComponent(uri)}&resolve=true&type=statuses`, {
      token: user.token,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.statuses[0], `${uri} not found`);
    return r.body.statuses[0].id;
  }

  async function fetchJson(url: string) {
    const res = await fetch(url, { headers: AS_JSON });
    return { status: res.status, body: res.status === 200 ? await res.json() : null };
  }

  /** The quote a post makes, as a server stores it (by the post's URI). */
  async function quoteOf(s: TestServer, uri: string) {
    const status = await s.ctx.repos.statuses.getByUri(uri);
    assert.ok(status, `${uri} not stored`);
    return s.ctx.repos.quotes.byQuotingStatus(status.id);
  }

  before(async () => {
    [a, b, remote] = await Promise.all([startTestServer(ALLOW), startTestServer(ALLOW), FakeRemote.start()]);
    [alice, bob, mallory] = await Promise.all([a.createUser("alice"), b.createUser("bob"), remote.addActor("mallory")]);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close(), remote?.close()]);
  });

  let bobPost: { id: string; uri: string };
  let alicePost: { id: string; uri: string };

  test("a user on A quotes a post on B: QuoteRequest, automatic Accept, accepted on A, counted on B", async () => {
    bobPost = await api(b, bob, "/api/v1/statuses", { status: "quotable", quote_approval_policy: "public" });
    // B says who may quote it, as Mastodon does; A keeps it.
    const served = await fetchJson(bobPost.uri);
    assert.deepEqual(served.body.interactionPolicy?.canQuote?.automaticApproval, "as:Public");
    const bobPostOnA = await resolve(a, alice, bobPost.uri);
    const copy = await a.ctx.repos.statuses.getById(bobPostOnA);
    assert.deepEqual(JSON.parse(copy?.quotePolicy ?? "null")?.automatic, ["public"]);

    alicePost = await api(a, alice, "/api/v1/statuses", { status: "look at this", quoted_status_id: bobPostOnA });
    await settle();

    const onA = await quoteOf(a, alicePost.uri);
    assert.equal(onA?.state, "accepted");
    assert.ok(onA.approvalUri?.startsWith(`${b.ctx.config.baseUrl}/users/bob/`), `stamp on B: ${onA.approvalUri}`);
    assert.equal((await a.ctx.repos.statuses.getById(bobPostOnA))?.quotesCount, 1);
    const onB = await quoteOf(b, alicePost.uri);
    assert.equal(onB?.state, "accepted");
    assert.equal(onB.approvalUri, onA.approvalUri);
    assert.equal((await b.ctx.repos.statuses.getById(bobPost.id))?.quotesCount, 1);

    // B serves the stamp: bob approved alice's post quoting his.
    const stamp = await fetchJson(onA.approvalUri ?? "");
    assert.equal(stamp.status, 200);
    assert.equal(stamp.body.type, "QuoteAuthorization");
    assert.equal(stamp.body.attributedTo, bob.account.uri);
    assert.equal(stamp.body.interactingObject, alicePost.uri);
    assert.equal(stamp.body.interactionTarget, bobPost.uri);

    // A's Note says what it quotes, with the stamp, in the forms Mastodon and older servers read.
    const note = (await fetchJson(alicePost.uri)).body;
    assert.equal(note.quote, bobPost.uri);
    assert.equal(note._misskey_quote, bobPost.uri);
    assert.equal(note.quoteUri, bobPost.uri);
    assert.equal(note.quoteAuthorization, onA.approvalUri);

    // The clients: alice sees her quote accepted; bob is notified of it.
    const entity = await api(a, alice, `/api/v1/statuses/${alicePost.id}`, undefined, "GET");
    assert.equal(entity.quote?.state, "accepted");
    assert.equal(entity.quote?.quoted_status?.id, bobPostOnA);
    const notes = await api(b, bob, "/api/v1/notifications?types[]=quote", undefined, "GET");
    assert.equal(notes.length, 1);
    assert.equal(notes[0].status?.uri, alicePost.uri);
  });

  test("a post whose policy refuses the quoter: B answers Reject and the quote is rejected on A", async () => {
    const post = await api(b, bob, "/api/v1/statuses", { status: "mine alone", quote_approval_policy: "public" });
    const onA = await resolve(a, alice, post.uri);
    // B's author narrows the policy after A fetched the post: A asks, B refuses.
    await api(b, bob, `/api/v1/statuses/${post.id}/interaction_policy`, { quote_approval_policy: "nobody" }, "PUT");
    const quoting = await api(a, alice, "/api/v1/statuses", { status: "quoting anyway", quoted_status_id: onA });
    await settle();
    assert.equal((await quoteOf(a, quoting.uri))?.state, "rejected");
    assert.equal((await a.ctx.repos.statuses.getById(onA))?.quotesCount, 0);
    assert.equal((await b.ctx.repos.statuses.getById(post.id))?.quotesCount, 0);
    assert.equal((await fetchJson(quoting.uri)).body.quoteAuthorization, undefined);
  });

  test("revocation on B reaches A: the stamp is deleted and the quote revoked", async () => {
    const quote = await quoteOf(b, alicePost.uri);
    assert.ok(quote);
    const stampUri = quote.approvalUri;
    assert.ok(stampUri);
    await api(b, bob, `/api/v1/statuses/${bobPost.id}/quotes/${quote.statusId}/revoke`);
    await settle();
    assert.equal((await quoteOf(a, alicePost.uri))?.state, "revoked");
    assert.equal((await a.ctx.repos.statuses.getByUri(bobPost.uri))?.quotesCount, 0);
    assert.equal((await b.ctx.repos.statuses.getById(bobPost.id))?.quotesCount, 0);
    assert.equal((await fetchJson(stampUri)).status, 404);
  });

  test("remote Notes in the older forms (_misskey_quote, quoteUrl) are shown as quotes, marked legacy", async () => {
    const target = await api(a, alice, "/api/v1/statuses", { status: "quote me", quote_approval_policy: "public" });
    const note = remote.note(mallory, "legacy", {
      _misskey_quote: target.uri,
      content: "<p>RE: old style</p>",
      // Mastodon's words for who may quote mallory's post: her followers.
      interactionPolicy: { canQuote: { automaticApproval: [mallory.followers], manualApproval: [] } },
    });
    assert.equal(
      (await remote.send(`${a.url}/inbox`, { ...remote.create(mallory, note), "@context": QUOTE_CONTEXT })).status,
      202,
    );
    // A post on B that A has not seen: A fetches it to show the quote.
    const unseen = await api(b, bob, "/api/v1/statuses", { status: "unseen on A" });
    assert.equal(await a.ctx.repos.statuses.getByUri(unseen.uri), undefined);
    const note2 = remote.note(mallory, "legacy-url", { quoteUrl: unseen.uri });
    assert.equal(
      (await remote.send(`${a.url}/inbox`, { ...remote.create(mallory, note2), "@context": QUOTE_CONTEXT })).status,
      202,
    );
    await a.settle({ delayed: false });

    const quote = await quoteOf(a, note.id);
    assert.equal(quote?.state, "accepted");
    assert.equal(quote.legacy, true);
    assert.equal(quote.quotedStatusId, target.id);
    assert.equal((await a.ctx.repos.statuses.getById(target.id))?.quotesCount, 1);
    const entity = await api(a, alice, `/api/v1/statuses/${quote.statusId}`, undefined, "GET");
    assert.equal(entity.quote?.state, "accepted");
    assert.equal(entity.quote?.quoted_status?.id, target.id);
    const stored = await a.ctx.repos.statuses.getByUri(note.id);
    assert.deepEqual(JSON.parse(stored?.quotePolicy ?? "null"), { automatic: ["followers"], manual: [] });
    const quote2 = await quoteOf(a, note2.id);
    const fetched = await a.ctx.repos.statuses.getByUri(unseen.uri);
    assert.ok(fetched, "the quoted post was fetched from B");
    assert.equal(quote2?.state, "accepted");
    assert.equal(quote2.legacy, true);
    assert.equal(quote2.quotedStatusId, fetched.id);

    // An edit that drops the quote takes it away, and its count with it.
    const edited = { ...note, _misskey_quote: undefined, updated: new Date(Date.now() + 1000).toISOString() };
    const update = remote.activity(mallory, "Update", { object: edited, to: note.to, cc: note.cc });
    assert.equal((await remote.send(`${a.url}/inbox`, { ...update, "@context": QUOTE_CONTEXT })).status, 202);
    await a.settle({ delayed: false });
    assert.equal(await quoteOf(a, note.id), undefined);
    assert.equal((await a.ctx.repos.statuses.getById(target.id))?.quotesCount, 0);
  });

  test("a quote of a local post carries our own stamp, served at its URI", async () => {
    const carol = await a.createUser("carol");
    const target = await api(a, alice, "/api/v1/statuses", { status: "local", quote_approval_policy: "public" });
    const quoting = await api(a, carol, "/api/v1/statuses", { status: "local quote", quoted_status_id: target.id });
    const note = (await fetchJson(quoting.uri)).body;
    assert.equal(note.quote, target.uri);
    assert.match(note.quoteAuthorization, /\/users\/alice\/quote_authorizations\/\d+$/);
    const stamp = (await fetchJson(note.quoteAuthorization)).body;
    assert.equal(stamp.type, "QuoteAuthorization");
    assert.equal(stamp.attributedTo, alice.account.uri);
    assert.equal(stamp.interactingObject, quoting.uri);
    assert.equal(stamp.interactionTarget, target.uri);
  });

  test("a Mastodon-shaped QuoteRequest: Accept with a stamp when the policy allows, Reject when not", async () => {
    const open = await api(a, alice, "/api/v1/statuses", { status: "open", quote_approval_policy: "public" });
    const closed = await api(a, alice, "/api/v1/statuses", { status: "closed", quote_approval_policy: "nobody" });
    const ask = async (target: { uri: string }, name: string) => {
      const note = remote.note(mallory, name, { quote: target.uri });
      const request = remote.activity(mallory, "QuoteRequest", { object: target.uri, instrument: note });
      const res = await remote.send(`${a.url}/inbox`, { ...request, "@context": QUOTE_CONTEXT });
      assert.equal(res.status, 202);
      await a.settle({ delayed: false });
      return { note, request };
    };
    const yes = await ask(open, "asks-open");
    const accept = remote.receivedOfType("Accept").find((r) => (r.body.object?.id ?? r.body.object) === yes.request.id);
    assert.ok(accept, "an Accept of the request");
    const quote = await quoteOf(a, yes.note.id);
    assert.equal(quote?.state, "accepted");
    assert.equal(accept.body.result, quote.approvalUri);
    assert.equal((await fetchJson(accept.body.result)).body?.interactingObject, yes.note.id);
    assert.equal((await a.ctx.repos.statuses.getById(open.id))?.quotesCount, 1);
    const notes = await api(a, alice, "/api/v1/notifications?types[]=quote", undefined, "GET");
    assert.ok(notes.some((n: any) => n.status?.uri === yes.note.id));

    const no = await ask(closed, "asks-closed");
    const reject = remote.receivedOfType("Reject").find((r) => (r.body.object?.id ?? r.body.object) === no.request.id);
    assert.ok(reject, "a Reject of the request");
    assert.equal((await a.ctx.repos.statuses.getById(closed.id))?.quotesCount, 0);
  });

  test("forged stamps are not accepted: of a local post, or attributed by another server", async () => {
    const target = await api(a, alice, "/api/v1/statuses", { status: "not yours", quote_approval_policy: "public" });
    // A stamp of mallory's own making, claiming alice approved: only A's own answer counts.
    const forged = { id: `${remote.origin}/stamps/1`, type: "QuoteAuthorization", attributedTo: alice.account.uri };
    const note = remote.note(mallory, "forged-local", { quote: target.uri, quoteAuthorization: forged.id });
    remote.serve({ ...forged, interactingObject: note.id, interactionTarget: target.uri, "@context": QUOTE_CONTEXT });
    await remote.send(`${a.url}/inbox`, { ...remote.create(mallory, note), "@context": QUOTE_CONTEXT });
    // A stamp for bob's post on B, served by mallory's server: not the quoted author's origin.
    const stamp2 = { id: `${remote.origin}/stamps/2`, type: "QuoteAuthorization", attributedTo: bob.account.uri };
    const note2 = remote.note(mallory, "forged-remote", { quote: bobPost.uri, quoteAuthorization: stamp2.id });
    remote.serve({ ...stamp2, interactingObject: note2.id, interactionTarget: bobPost.uri, "@context": QUOTE_CONTEXT });
    await remote.send(`${a.url}/inbox`, { ...remote.create(mallory, note2), "@context": QUOTE_CONTEXT });
    await a.settle({ delayed: false });
    const forgedQuote = await quoteOf(a, note.id);
    assert.equal(forgedQuote?.state, "pending");
    const entity = await api(a, alice, `/api/v1/statuses/${forgedQuote.statusId}`, undefined, "GET");
    assert.notEqual(entity.quote?.state, "accepted");
    assert.equal((await quoteOf(a, note2.id))?.state, "pending");
    assert.equal((await a.ctx.repos.statuses.getById(target.id))?.quotesCount, 0);
  });
});
