import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runElsewhere } from "../helpers/elsewhere.ts";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("inbox: signatures, origins and domain blocks", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let other: FakeRemote;
  let bob: FakeActor;
  let eve: FakeActor;
  let inbox: string;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    other = await FakeRemote.start();
    bob = await remote.addActor("bob");
    eve = await other.addActor("eve");
    await s.createUser("alice");
    inbox = `${s.url}/inbox`;
  });
  after(async () => {
    await s?.close();
    await remote?.close();
    await other?.close();
  });

  const stored = async (uri: string) => (await s.ctx.repos.statuses.getByUri(uri)) !== undefined;

  it("accepts a request signed with RFC 9421 as well as the cavage draft", async () => {
    const a = remote.note(bob, "cavage");
    const b = remote.note(bob, "rfc9421");
    assert.equal((await remote.send(inbox, remote.create(bob, a))).status, 202);
    assert.equal((await remote.send(inbox, remote.create(bob, b), { spec: "rfc9421" })).status, 202);
    await s.settle({ delayed: false });
    assert.equal(await stored(a.id), true);
    assert.equal(await stored(b.id), true);
  });

  it("refuses a body over 1 MiB before reading it (shared and personal inbox, declared or chunked)", async () => {
    const huge = JSON.stringify({ type: "Create", padding: "x".repeat(1024 * 1024) });
    for (const path of ["/inbox", "/users/alice/inbox"]) {
      const declared = await fetch(`${s.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body: huge,
      });
      assert.equal(declared.status, 413, path);
      assert.deepEqual(await declared.json(), { error: "The request body is too large" });
      const chunked = await fetch(`${s.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body: new Blob([huge]).stream(),
        duplex: "half",
      } as RequestInit);
      assert.equal(chunked.status, 413, path);
    }
  });

  it("refuses an unsigned activity", async () => {
    const n = remote.note(bob, "unsigned");
    const res = await remote.send(inbox, remote.create(bob, n), { unsigned: true });
    assert.equal(res.status, 401);
    assert.equal(await stored(n.id), false);
  });

  it("refuses a forged body (changed after signing) and a key of another actor", async () => {
    const n = remote.note(bob, "forged");
    const forged = await remote.send(inbox, remote.create(bob, n), {
      tamper: (body) => body.replace("<p>Hello</p>", "<p>Send me money</p>"),
    });
    assert.equal(forged.status, 401);
    const mallory = await remote.addActor("mallory");
    const n2 = remote.note(bob, "impersonated");
    const impersonated = await remote.send(inbox, remote.create(bob, n2), { signer: mallory });
    assert.equal(impersonated.status, 401);
    assert.equal(await stored(n.id), false);
    assert.equal(await stored(n2.id), false);
  });

  it("takes an actor's new key once its cached document expired, and refuses the old one from then on", async () => {
    const carol = await remote.addActor("carol");
    const oldKeys = carol.keys;
    const first = remote.note(carol, "key-1");
    assert.equal((await remote.send(inbox, remote.create(carol, first))).status, 202);
    // Twice with the cached key: parsed once, verified each time.
    const again = remote.note(carol, "key-1-again");
    assert.equal((await remote.send(inbox, remote.create(carol, again))).status, 202);
    await remote.rotateKey(carol);
    // Fedify's fetch of the key after a failed verification goes through the document cache
    // (5 minutes, as Fedify's own loader): its expiry, simulated.
    const documents = await s.ctx.repos.kv.listPrefix("_fedify/remoteDocument/", new Date().toISOString());
    const carols = documents.filter((d) => decodeURIComponent(d.key).includes(carol.id));
    assert.ok(carols.length > 0, "the actor's document was cached");
    for (const d of carols) await s.ctx.repos.kv.delete(d.key);
    const rotated = remote.note(carol, "key-2");
    assert.equal((await remote.send(inbox, remote.create(carol, rotated))).status, 202);
    const stale = remote.note(carol, "key-1-after-rotation");
    const newKeys = carol.keys;
    carol.keys = oldKeys;
    const refused = await remote.send(inbox, remote.create(carol, stale));
    carol.keys = newKeys;
    assert.equal(refused.status, 401);
    assert.equal(await stored(first.id), true);
    assert.equal(await stored(again.id), true);
    assert.equal(await stored(rotated.id), true);
    assert.equal(await stored(stale.id), false);
  });

  it("refuses a replayed request signed hours ago, and processes a repeated activity once", async () => {
    const n = remote.note(bob, "old");
    const old = await remote.send(inbox, remote.create(bob, n), { time: new Date(Date.now() - 3 * 3600_000) });
    assert.equal(old.status, 401);
    assert.equal(await stored(n.id), false);
    const like = remote.activity(bob, "Like", { object: remote.note(bob, "cavage").id });
    const alice = await s.request("/api/v1/statuses", {
      method: "POST",
      token: (await s.createUser("dora")).token,
      json: { status: "like me" },
    });
    like.object = alice.body.uri;
    assert.equal((await remote.send(inbox, like)).status, 202);
    assert.equal((await remote.send(inbox, like)).status, 202);
    await s.settle({ delayed: false });
    const after = await s.ctx.repos.statuses.getById(alice.body.id);
    assert.equal(after?.favouritesCount, 1);
  });

  it("refuses Update and Delete of another origin's post", async () => {
    const n = remote.note(bob, "victim", { content: "<p>original</p>" });
    assert.equal((await remote.send(inbox, remote.create(bob, n))).status, 202);
    await s.settle({ delayed: false });
    const update = other.activity(eve, "Update", {
      object: { ...n, content: "<p>hijacked</p>", attributedTo: bob.id },
    });
    assert.equal((await other.send(inbox, update)).status, 202);
    const del = other.activity(eve, "Delete", { object: { id: n.id, type: "Tombstone" } });
    assert.equal((await other.send(inbox, del)).status, 202);
    // A Create on eve's server claiming bob's post id is not taken either.
    const create = other.activity(eve, "Create", { object: { ...n, content: "<p>claimed</p>" } });
    assert.equal((await other.send(inbox, create)).status, 202);
    await s.settle({ delayed: false });
    const st = await s.ctx.repos.statuses.getByUri(n.id);
    assert.equal(st?.content, "<p>original</p>");
    assert.equal(st?.deletedAt, null);
    // The author may edit and delete it.
    const edit = remote.activity(bob, "Update", {
      object: { ...n, content: "<p>edited</p>", updated: new Date().toISOString() },
    });
    assert.equal((await remote.send(inbox, edit)).status, 202);
    await s.settle({ delayed: false });
    const edited = await s.ctx.repos.statuses.getByUri(n.id);
    assert.equal(edited?.content, "<p>edited</p>");
    const history = await s.request(`/api/v1/statuses/${edited?.id}/history`);
    assert.deepEqual(
      history.body.map((h: any) => h.content),
      ["<p>original</p>", "<p>edited</p>"],
    );
    const own = remote.activity(bob, "Delete", { object: { id: n.id, type: "Tombstone" } });
    assert.equal((await remote.send(inbox, own)).status, 202);
    await s.settle({ delayed: false });
    assert.notEqual((await s.ctx.repos.statuses.getByUri(n.id))?.deletedAt, null);
  });

  it("refuses activities from a suspended domain before verifying anything; a silenced domain's are kept, silenced, media rejected", async () => {
    await s.ctx.repos.instanceDomainBlocks.upsert(
      {
        domain: other.domain,
        severity: "suspend",
        rejectMedia: false,
        rejectReports: false,
        privateComment: null,
        publicComment: null,
        obfuscate: false,
      },
      s.ctx.ids.next(),
      new Date().toISOString(),
    );
    const n = other.note(eve, "blocked");
    const res = await other.send(inbox, other.create(eve, n));
    assert.equal(res.status, 403);
    assert.equal(await stored(n.id), false);
    // A silenced domain's posts are accepted, and its new accounts silenced.
    const third = await FakeRemote.start();
    try {
      const zed = await third.addActor("zed");
      const silenceBlock = await s.ctx.repos.instanceDomainBlocks.upsert(
        {
          domain: third.domain.replace(/:\d+$/, ""),
          severity: "silence",
          rejectMedia: true,
          rejectReports: true,
          privateComment: null,
          publicComment: null,
          obfuscate: false,
        },
        s.ctx.ids.next(),
        new Date().toISOString(),
      );
      const z = third.note(zed, "quiet", {
        attachment: [{ type: "Document", mediaType: "image/png", url: `${third.origin}/x.png` }],
      });
      assert.equal((await third.send(inbox, third.create(zed, z))).status, 202);
      await s.settle({ delayed: false });
      const account = await s.ctx.repos.accounts.getByUri(zed.id);
      // Marked with the block's time (Mastodon's), so lifting the block unsilences it.
      assert.equal(account?.silencedAt, silenceBlock.createdAt);
      const st = await s.ctx.repos.statuses.getByUri(z.id);
      const media = await s.ctx.repos.media.listByStatuses([st?.id ?? "0"]);
      assert.equal(media[0]?.type, "unknown");
    } finally {
      await third.close();
    }
  });

  it("applies a domain block or its lifting to the next activity, made here or by another process", async () => {
    const fourth = await FakeRemote.start();
    try {
      const yan = await fourth.addActor("yan");
      const send = async (name: string) =>
        (await fourth.send(inbox, fourth.create(yan, fourth.note(yan, name)))).status;
      assert.equal(await send("before"), 202);
      const now = new Date().toISOString();
      const block = {
        domain: fourth.domain,
        severity: "suspend" as const,
        rejectMedia: false,
        rejectReports: false,
        privateComment: null,
        publicComment: null,
        obfuscate: false,
      };
      await s.ctx.repos.instanceDomainBlocks.upsert(block, s.ctx.ids.next(), now);
      assert.equal(await send("blocked-here"), 403);
      assert.equal(await s.ctx.repos.instanceDomainBlocks.delete(fourth.domain), true);
      assert.equal(await send("lifted-here"), 202);
      // The same by another connection to the database, as the `gannet domains` command does.
      await runElsewhere(
        s,
        `INSERT INTO domain_blocks (id, domain, severity, reject_media, reject_reports, obfuscate, created_at, updated_at)
          VALUES (?, ?, 'suspend', FALSE, FALSE, FALSE, ?, ?)`,
        [s.ctx.ids.next(), fourth.domain, now, now],
      );
      assert.equal(await send("blocked-elsewhere"), 403);
      await runElsewhere(s, "DELETE FROM domain_blocks WHERE domain = ?", [fourth.domain]);
      assert.equal(await send("lifted-elsewhere"), 202);
    } finally {
      await fourth.close();
    }
  });

  it("answers 401 with no listener run for an activity signed by an unknown key", async () => {
    const ghost = await remote.addActor("ghost");
    const n = remote.note(ghost, "ghost");
    const res = await remote.send(inbox, remote.create(ghost, n), {
      signer: { ...ghost, keyId: `${remote.origin}/users/nobody#main-key` },
    });
    assert.equal(res.status, 401);
    assert.equal(await stored(n.id), false);
  });
});

describe("inbox: limited-federation mode", () => {
  let s: TestServer;
  let remote: FakeRemote;
  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1", LIMITED_FEDERATION_MODE: "true" });
    remote = await FakeRemote.start();
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  it("accepts activities only from allowed domains", async () => {
    const bob = await remote.addActor("bob");
    const first = remote.note(bob, "1");
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(bob, first))).status, 403);
    await s.ctx.repos.instanceDomainBlocks.allow(remote.domain, s.ctx.ids.next(), new Date().toISOString());
    const second = remote.note(bob, "2");
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(bob, second))).status, 202);
    await s.settle({ delayed: false });
    assert.equal(await s.ctx.repos.statuses.getByUri(first.id), undefined);
    assert.ok(await s.ctx.repos.statuses.getByUri(second.id));
  });
});
