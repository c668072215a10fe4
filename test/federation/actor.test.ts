import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const AP = { accept: "application/activity+json" };

describe("federation: actors", () => {
  let s: TestServer;
  let base: string;
  let domain: string;

  before(async () => {
    s = await startTestServer();
    base = s.ctx.config.baseUrl;
    domain = s.ctx.config.localDomain;
  });
  after(() => s.close());

  it("serves a full Person with both keys, collections and profile fields", async () => {
    const alice = await s.createUser("alice");
    const target = await s.createUser("newhome");
    const now = new Date().toISOString();
    await s.ctx.repos.customEmojis.insert({
      id: s.ctx.ids.next(),
      shortcode: "blob",
      domain: null,
      image_key: "emoji/blob.png",
      image_content_type: "image/png",
      created_at: now,
      updated_at: now,
    });
    await s.ctx.repos.accounts.update(alice.account.id, {
      avatar_path: "avatars/a.png",
      avatar_content_type: "image/png",
      header_path: "headers/h.jpg",
      header_content_type: "image/jpeg",
      display_name: "Alice :blob:",
      note: "<p>Hi</p>",
      locked: true,
      discoverable: true,
      indexable: true,
      fields: JSON.stringify([{ name: "Site", value: '<a href="https://a.example">a.example</a>', verified_at: null }]),
      also_known_as: JSON.stringify(["https://old.example/users/alice"]),
      moved_to_account_id: target.account.id,
    });
    const r = await s.request(`/users/alice`, { headers: AP });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /application\/activity\+json/);
    const a = r.body;
    assert.equal(a.type, "Person");
    assert.equal(a.id, `${base}/users/alice`);
    assert.equal(a.preferredUsername, "alice");
    assert.equal(a.name, "Alice :blob:");
    assert.equal(a.summary, "<p>Hi</p>");
    assert.equal(a.inbox, `${base}/users/alice/inbox`);
    assert.equal(a.endpoints.sharedInbox, `${base}/inbox`);
    assert.equal(a.outbox, `${base}/users/alice/outbox`);
    assert.equal(a.followers, `${base}/users/alice/followers`);
    assert.equal(a.following, `${base}/users/alice/following`);
    assert.equal(a.featured, `${base}/users/alice/collections/featured`);
    assert.equal(a.featuredTags, `${base}/users/alice/collections/tags`);
    assert.equal(a.manuallyApprovesFollowers, true);
    assert.equal(a.discoverable, true);
    assert.equal(a.indexable, true);
    assert.deepEqual([a.alsoKnownAs].flat(), ["https://old.example/users/alice"]);
    assert.equal(a.movedTo, `${base}/users/newhome`);
    assert.equal(a.url, `${base}/@alice`);
    assert.equal(a.icon.type, "Image");
    assert.equal(a.icon.mediaType, "image/png");
    assert.equal(a.icon.url, s.ctx.blobs.url("avatars/a.png"));
    assert.equal(a.image.url, s.ctx.blobs.url("headers/h.jpg"));
    const [emoji] = [a.tag].flat();
    assert.equal(emoji.type, "Emoji");
    assert.equal(emoji.name, ":blob:");
    assert.equal(emoji.icon.url, s.ctx.blobs.url("emoji/blob.png"));
    assert.ok(a.published);
    const fields = [a.attachment].flat();
    assert.deepEqual(
      fields.map((f: { type: string; name: string; value: string }) => [f.type, f.name, f.value]),
      [["PropertyValue", "Site", '<a href="https://a.example">a.example</a>']],
    );
    // RSA for HTTP Signatures, and both keys as Multikeys (Ed25519 for object integrity proofs).
    assert.equal(a.publicKey.owner, a.id);
    assert.match(a.publicKey.publicKeyPem, /^-----BEGIN PUBLIC KEY-----/);
    const methods = [a.assertionMethod].flat();
    assert.equal(methods.length, 2);
    assert.ok(
      methods.every((m: { type: string; controller: string }) => m.type === "Multikey" && m.controller === a.id),
    );
    // Ed25519 multibase keys start with z6Mk; RSA ones with z4MX.
    assert.ok(methods.some((m: { publicKeyMultibase: string }) => m.publicKeyMultibase.startsWith("z6Mk")));
    // Stored at creation, as PEM.
    const stored = await s.ctx.repos.localActors.get(alice.account.id);
    assert.match(stored?.ed25519Private ?? "", /^-----BEGIN PRIVATE KEY-----/);
    assert.match(stored?.rsaPrivate ?? "", /^-----BEGIN PRIVATE KEY-----/);
  });

  it("serves bots as Service, and generates keys lazily for accounts without them", async () => {
    const bot = await s.createUser("botty");
    await s.ctx.db
      .updateTable("accounts")
      .set({
        actor_type: "Service",
        public_key_pem: null,
        private_key_pem: null,
        ed25519_public_key: null,
        ed25519_private_key: null,
      })
      .where("id", "=", bot.account.id)
      .execute();
    const r = await s.request(`/users/botty`, { headers: AP });
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "Service");
    assert.match(r.body.publicKey.publicKeyPem, /BEGIN PUBLIC KEY/);
    const stored = await s.ctx.repos.localActors.get(bot.account.id);
    assert.ok(stored);
    // The same key is served again (not regenerated).
    const again = await s.request(`/users/botty`, { headers: AP });
    assert.equal(again.body.publicKey.publicKeyPem, r.body.publicKey.publicKeyPem);
    assert.equal(r.body.publicKey.publicKeyPem.trim(), stored.rsaPublic.trim());
  });

  it("serves the instance actor at /actor and through WebFinger", async () => {
    const r = await s.request(`/actor`, { headers: AP });
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "Application");
    assert.equal(r.body.id, `${base}/actor`);
    assert.equal(r.body.preferredUsername, domain);
    assert.match(r.body.publicKey.publicKeyPem, /BEGIN PUBLIC KEY/);
    assert.equal(r.body.publicKey.id.startsWith(`${base}/actor`), true);
    const wf = await s.request(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:${domain}@${domain}`)}`);
    assert.equal(wf.status, 200);
    assert.equal(wf.body.links.find((l: { rel: string }) => l.rel === "self")?.href, `${base}/actor`);
  });

  it("does not serve unconfirmed accounts, and answers 410 for deleted ones", async () => {
    await s.createUser("pending", { confirmed: false });
    assert.equal((await s.request(`/users/pending`, { headers: AP })).status, 404);
    const gone = await s.createUser("gone");
    await s.ctx.repos.accounts.update(gone.account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "deleted",
    });
    const r = await s.request(`/users/gone`, { headers: AP });
    assert.equal(r.status, 410);
  });
});
