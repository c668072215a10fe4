import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;

/**
 * A minimal remote ActivityPub server on loopback: WebFinger, actors (`bird` with an outbox of 25
 * posts, `gull`, `tern`, `puffin`), notes and their `replies` collections. Requests are counted
 * by path. Nothing here is signed: the tests resolve and fetch, they do not deliver.
 */
async function startFakeRemote() {
  const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#226688" } })
    .png()
    .toBuffer();
  const hits = new Map<string, number>();
  const names: Record<string, string> = { bird: "Bird", gull: "Gull", tern: "Tern", puffin: "Puffin" };
  let base = "";
  const actor = (u: string) => ({
    "@context": [AS, "https://w3id.org/security/v1"],
    id: `${base}/users/${u}`,
    type: "Person",
    preferredUsername: u,
    name: names[u],
    summary: `<p>I am ${u}</p>`,
    url: `${base}/@${u}`,
    inbox: `${base}/users/${u}/inbox`,
    outbox: `${base}/users/${u}/outbox`,
    followers: `${base}/users/${u}/followers`,
    icon: { type: "Image", mediaType: "image/png", url: `${base}/files/${u}.png` },
  });
  /** Notes: bird's 1..25 in its outbox and 100 outside it; 100 has replies 101 (gull), 102 (tern); 101 has 103 (bird). */
  const parentOf: Record<number, number> = { 101: 100, 102: 100, 103: 101 };
  const authorOf = (n: number) => (n === 101 ? "gull" : n === 102 ? "tern" : "bird");
  const repliesOf: Record<number, number[]> = { 100: [101, 102], 101: [103] };
  const note = (n: number) => ({
    id: `${base}/users/${authorOf(n)}/statuses/${n}`,
    type: "Note",
    attributedTo: `${base}/users/${authorOf(n)}`,
    content:
      n === 100
        ? `<p>Post number ${n}: <a href="${base}/tags/x" rel="tag">#x</a> <a href="${base}/page">a page</a></p>`
        : `<p>Post number ${n}</p>`,
    ...(n === 100
      ? { attachment: [{ type: "Document", mediaType: "image/png", url: `${base}/files/photo.png`, name: "A photo" }] }
      : {}),
    published: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    to: [PUBLIC],
    cc: [`${base}/users/${authorOf(n)}/followers`],
    ...(parentOf[n] ? { inReplyTo: `${base}/users/${authorOf(parentOf[n])}/statuses/${parentOf[n]}` } : {}),
    replies: `${base}/users/${authorOf(n)}/statuses/${n}/replies`,
  });
  const json = (res: import("node:http").ServerResponse, body: unknown, type = "application/activity+json") => {
    res.writeHead(200, { "content-type": type });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const wf =
      url.pathname === "/.well-known/webfinger" && /^acct:([a-z]+)@/.exec(url.searchParams.get("resource") ?? "");
    if (wf && names[wf[1] ?? ""]) {
      return json(
        res,
        {
          subject: url.searchParams.get("resource"),
          links: [{ rel: "self", type: "application/activity+json", href: `${base}/users/${wf[1]}` }],
        },
        "application/jrd+json",
      );
    }
    if (url.pathname.startsWith("/files/")) {
      res.writeHead(200, { "content-type": "image/png" });
      return void res.end(png);
    }
    if (url.pathname === "/page") {
      res.writeHead(200, { "content-type": "text/html" });
      return void res.end(`<html><head><meta property="og:title" content="A remote page"></head></html>`);
    }
    let m = /^\/users\/([a-z]+)$/.exec(url.pathname);
    if (m && names[m[1] ?? ""]) return json(res, actor(m[1] ?? ""));
    if (url.pathname === "/users/bird/outbox") {
      const items = Array.from({ length: 25 }, (_, i) => 25 - i).map((n) => ({
        id: `${base}/users/bird/statuses/${n}/activity`,
        type: "Create",
        actor: `${base}/users/bird`,
        to: [PUBLIC],
        object: note(n),
      }));
      return json(res, {
        "@context": AS,
        id: `${base}/users/bird/outbox`,
        type: "OrderedCollection",
        totalItems: 25,
        orderedItems: items,
      });
    }
    m = /^\/users\/([a-z]+)\/statuses\/(\d+)(\/replies)?$/.exec(url.pathname);
    const n = Number(m?.[2]);
    if (m && authorOf(n) === m[1]) {
      if (!m[3]) return json(res, { "@context": AS, ...note(n) });
      const ids = (repliesOf[n] ?? []).map((r) => `${base}/users/${authorOf(r)}/statuses/${r}`);
      return json(res, {
        "@context": AS,
        id: `${base}${url.pathname}`,
        type: "OrderedCollection",
        totalItems: ids.length,
        orderedItems: ids,
      });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  return {
    base,
    domain: `127.0.0.1:${port}`,
    hits: (path: string) => hits.get(path) ?? 0,
    rename: (u: string, name: string) => {
      names[u] = name;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("resolving remote accounts and posts, and backfill", () => {
  let s: TestServer;
  let remote: Awaited<ReturnType<typeof startFakeRemote>>;
  let alice: TestUser;

  before(async () => {
    remote = await startFakeRemote();
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s.close();
    await remote.close();
  });

  it("search with resolve=true resolves an unknown remote account through WebFinger and backfills 20 of its posts", async () => {
    const found = await s.request(`/api/v2/search?q=${encodeURIComponent(`@bird@${remote.domain}`)}&resolve=true`, {
      token: alice.token,
    });
    assert.equal(found.status, 200);
    const bird = found.body.accounts[0];
    assert.equal(bird.acct, `bird@${remote.domain}`);
    assert.equal(bird.display_name, "Bird");
    assert.equal(bird.url, `${remote.base}/@bird`);
    assert.equal(bird.note, "<p>I am bird</p>");
    await s.settle();
    const avatar = (await s.request(`/api/v1/accounts/${bird.id}`)).body.avatar;
    assert.match(avatar, /\/system\/cache\/accounts\/avatars\//, "the avatar is cached when the account is stored");
    const posts = await s.request(`/api/v1/accounts/${bird.id}/statuses?limit=40`, { token: alice.token });
    assert.equal(posts.body.length, 20, "bounded to 20 of the 25 in the outbox");
    assert.equal(posts.body[0].content, "<p>Post number 25</p>", "the newest first");
    assert.equal(posts.body[0].uri, `${remote.base}/users/bird/statuses/25`);
    // Known now: lookup (which never resolves) finds it, with no WebFinger query.
    const wf = remote.hits("/.well-known/webfinger");
    assert.equal((await s.request(`/api/v1/accounts/lookup?acct=@bird@${remote.domain}`)).body.id, bird.id);
    assert.equal(remote.hits("/.well-known/webfinger"), wf);
    assert.equal((await s.request(`/api/v1/accounts/lookup?acct=nobody@${remote.domain}`)).status, 404);
    assert.equal(remote.hits("/.well-known/webfinger"), wf);
  });

  it("search with resolve=true finds @user@domain, profile URLs and post URLs (signed-in only)", async () => {
    const q = (query: string, token?: string, resolve = true) =>
      s.request(`/api/v2/search?q=${encodeURIComponent(query)}${resolve ? "&resolve=true" : ""}`, { token });
    assert.deepEqual((await q(`@gull@${remote.domain}`, alice.token, false)).body.accounts, [], "not without resolve");
    assert.equal((await q(`@gull@${remote.domain}`)).status, 401, "not without a user");
    const gull = await q(`@gull@${remote.domain}`, alice.token);
    assert.equal(gull.status, 200);
    assert.equal(gull.body.accounts[0].acct, `gull@${remote.domain}`);

    const tern = await q(`${remote.base}/users/tern`, alice.token);
    assert.equal(tern.body.accounts[0].acct, `tern@${remote.domain}`);

    const post = await q(`${remote.base}/users/bird/statuses/100`, alice.token);
    assert.equal(post.body.statuses.length, 1);
    assert.match(post.body.statuses[0].content, /^<p>Post number 100: /);
    assert.equal(post.body.statuses[0].account.acct, `bird@${remote.domain}`);
    await s.settle();
    // Stored remote posts get their media cached and their card fetched in the background.
    const stored = (await s.request(`/api/v1/statuses/${post.body.statuses[0].id}`)).body;
    assert.match(stored.media_attachments[0].url, /\/system\/cache\/media_attachments\//);
    assert.equal(stored.media_attachments[0].remote_url, `${remote.base}/files/photo.png`);
    assert.equal(stored.media_attachments[0].description, "A photo");
    assert.equal(stored.card?.title, "A remote page", "the first link that is not a hashtag");
    assert.equal(stored.card?.url, `${remote.base}/page`);
  });

  it("opening a remote thread fetches its missing replies in the background, rate-limited", async () => {
    const found = await s.request(
      `/api/v2/search?q=${encodeURIComponent(`${remote.base}/users/bird/statuses/100`)}&resolve=true`,
      { token: alice.token },
    );
    const id = found.body.statuses[0].id;
    const first = await s.request(`/api/v1/statuses/${id}/context`, { token: alice.token });
    assert.deepEqual(first.body.descendants, [], "not known yet");
    await s.settle();
    const second = await s.request(`/api/v1/statuses/${id}/context`, { token: alice.token });
    assert.deepEqual(
      second.body.descendants.map((d: { content: string }) => d.content),
      ["<p>Post number 101</p>", "<p>Post number 103</p>", "<p>Post number 102</p>"],
      "replies and the reply's reply, threaded",
    );
    const repliesHits = remote.hits("/users/bird/statuses/100/replies");
    await s.settle();
    await s.request(`/api/v1/statuses/${id}/context`, { token: alice.token });
    await s.settle();
    assert.equal(remote.hits("/users/bird/statuses/100/replies"), repliesHits, "once per 15 minutes");
  });

  it("mentions of unknown remote accounts are resolved when posting", async () => {
    const r = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: `Hello @puffin@${remote.domain} and @ghost@${remote.domain}!` },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.mentions.map((m: { acct: string }) => m.acct),
      [`puffin@${remote.domain}`],
    );
    assert.match(
      r.body.content,
      new RegExp(`<a href="${remote.base}/@puffin" class="u-url mention">@<span>puffin</span></a>`),
    );
    assert.match(r.body.content, /@ghost@/, "an account that does not exist stays text");
    await s.settle();
  });

  it("a stale remote account is refreshed in the background when read", async () => {
    const bird = (await s.request(`/api/v1/accounts/lookup?acct=bird@${remote.domain}`)).body;
    remote.rename("bird", "Bird Renamed");
    await s.request(`/api/v1/accounts/${bird.id}`);
    await s.settle();
    assert.equal((await s.request(`/api/v1/accounts/${bird.id}`)).body.display_name, "Bird", "fresh: not fetched");
    await s.ctx.db
      .updateTable("accounts")
      .set({ fetched_at: new Date(Date.now() - 2 * 86_400_000).toISOString() })
      .where("id", "=", bird.id)
      .execute();
    // Fedify keeps fetched documents 5 minutes; a day-old account is past that.
    await s.ctx.db.deleteFrom("kv_store").where("key", "like", "_fedify/remoteDocument/%").execute();
    await s.request(`/api/v1/accounts/${bird.id}`);
    await s.settle();
    assert.equal((await s.request(`/api/v1/accounts/${bird.id}`)).body.display_name, "Bird Renamed");
  });

  it("resolves a second Gannet server's account by handle and profile URL, and its post by URL", async () => {
    const other = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    try {
      const bob = await other.createUser("bob");
      await other.createUser("carol");
      const posted = await other.request("/api/v1/statuses", {
        method: "POST",
        token: bob.token,
        json: { status: "Hello from the other side", visibility: "public" },
      });
      await other.settle();
      const domain = other.ctx.config.localDomain;
      const found = await s.request(`/api/v2/search?q=${encodeURIComponent(`@bob@${domain}`)}&resolve=true`, {
        token: alice.token,
      });
      assert.equal(found.status, 200);
      const bobThere = found.body.accounts[0];
      assert.equal(bobThere.acct, `bob@${domain}`);
      assert.equal(bobThere.uri, `${other.ctx.config.baseUrl}/users/bob`);
      await s.settle();

      const search = (q: string) =>
        s.request(`/api/v2/search?q=${encodeURIComponent(q)}&resolve=true`, { token: alice.token });
      const byProfile = await search(`${other.ctx.config.baseUrl}/users/carol`);
      assert.equal(byProfile.body.accounts[0]?.acct, `carol@${domain}`);
      const byHandle = await search(`@carol@${domain}`);
      assert.equal(byHandle.body.accounts[0]?.id, byProfile.body.accounts[0]?.id);
      // A mention of an account this server has never seen resolves it, and the post reaches it.
      const dave = await other.createUser("dave");
      const mention = await s.request("/api/v1/statuses", {
        method: "POST",
        token: alice.token,
        json: { status: `Hi @dave@${domain}, welcome` },
      });
      assert.deepEqual(
        mention.body.mentions.map((m: { acct: string }) => m.acct),
        [`dave@${domain}`],
      );
      await s.settle();
      await other.settle();
      const notes = await other.request("/api/v1/notifications?types[]=mention", { token: dave.token });
      assert.equal(notes.body.length, 1, "delivered to the mentioned account's server");
      assert.equal(notes.body[0].account.acct, `alice@${s.ctx.config.localDomain}`);

      const byPost = await search(posted.body.uri);
      assert.equal(byPost.body.statuses[0]?.content, posted.body.content);
      assert.equal(byPost.body.statuses[0]?.account.acct, `bob@${domain}`);
      await s.settle();
    } finally {
      await other.close();
    }
  });
});
