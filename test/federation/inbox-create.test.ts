import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("inbox: Create from a Mastodon-shaped remote server", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let alice: TestUser;
  let carol: TestUser;
  let aliceUri: string;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    alice = await s.createUser("alice");
    carol = await s.createUser("carol");
    aliceUri = alice.account.uri;
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  const mentionOf = (uri: string, name: string) => ({ type: "Mention", href: uri, name: `@${name}` });

  it("stores a mention, creates the remote account and notifies the mentioned user", async () => {
    const note = remote.note(bob, "1", {
      content: `<p><span class="h-card"><a href="${aliceUri}" class="u-url mention">@<span>alice</span></a></span> hi there #Gannet</p>`,
      cc: [bob.followers, aliceUri],
      tag: [mentionOf(aliceUri, "alice"), { type: "Hashtag", href: `${remote.origin}/tags/gannet`, name: "#Gannet" }],
      contentMap: { en: "<p>hi</p>" },
    });
    const res = await remote.send(`${s.url}/inbox`, remote.create(bob, note));
    assert.equal(res.status, 202, await res.text());
    await s.settle();
    const account = await s.ctx.repos.accounts.getByUri(bob.id);
    assert.ok(account);
    assert.equal(account.username, "bob");
    assert.equal(account.domain, remote.domain);
    assert.equal(account.note, "<p>I am bob</p>");
    const notes = await s.request("/api/v1/notifications", { token: alice.token });
    const mention = notes.body.find((n: any) => n.type === "mention");
    assert.ok(mention, JSON.stringify(notes.body));
    assert.equal(mention.account.acct, `bob@${remote.domain}`);
    assert.equal(mention.status.uri, note.id);
    assert.equal(mention.status.visibility, "public");
    assert.equal(mention.status.language, "en");
    assert.deepEqual(
      mention.status.tags.map((t: any) => t.name),
      ["Gannet"],
    );
    assert.equal(mention.status.mentions[0].acct, "alice");
  });

  it("has stored the post when it answers 202: activities are processed in their request, not queued", async () => {
    const note = remote.note(bob, "stored-before-202", { content: "<p>already here</p>" });
    const res = await remote.send(`${s.url}/inbox`, remote.create(bob, note));
    assert.equal(res.status, 202, await res.text());
    // No settle(): the status is there as the answer arrives, and no inbox job waits.
    const stored = await s.ctx.repos.statuses.getByUri(note.id);
    assert.ok(stored, "the status is stored before the answer");
    assert.equal(stored.content, "<p>already here</p>");
    const state = await s.ctx.queue.state();
    assert.equal(
      state.counts.some((c) => c.name === "federation.inbox"),
      false,
      JSON.stringify(state.counts),
    );
  });

  it("puts a followed remote account's post in the follower's home timeline, once", async () => {
    const account = await s.ctx.repos.accounts.getByUri(bob.id);
    assert.ok(account);
    await s.follow(carol, { account });
    const note = remote.note(bob, "2", { content: "<p>for my followers</p>" });
    const create = remote.create(bob, note);
    assert.equal((await remote.send(`${s.url}/inbox`, create)).status, 202);
    // The same activity delivered again (to the personal inbox too) is stored once.
    assert.equal((await remote.send(`${s.url}/users/carol/inbox`, create)).status, 202);
    await s.settle();
    const home = await s.request("/api/v1/timelines/home", { token: carol.token });
    const found = home.body.filter((st: any) => st.uri === note.id);
    assert.equal(found.length, 1, JSON.stringify(home.body.map((x: any) => x.uri)));
    assert.equal(found[0].content, "<p>for my followers</p>");
    assert.equal(found[0].account.acct, `bob@${remote.domain}`);
    // Only local accounts have home feeds: none is kept for bob here.
    const bobsFeed = await s.ctx.db
      .selectFrom("feeds")
      .select("status_id")
      .where("account_id", "=", account.id)
      .execute();
    assert.deepEqual(bobsFeed, []);
    // Alice does not follow bob: not in her home.
    const aliceHome = await s.request("/api/v1/timelines/home", { token: alice.token });
    assert.equal(
      aliceHome.body.some((st: any) => st.uri === note.id),
      false,
    );
  });

  it("has fanned the post out to its followers' home feeds when it answers 202, with no job queued", async () => {
    // The names of the jobs queued meanwhile.
    const queued: string[] = [];
    const { queue } = s.ctx;
    const enqueueMany = queue.enqueueMany.bind(queue);
    const enqueue = queue.enqueue.bind(queue);
    queue.enqueueMany = (jobs) => {
      queued.push(...jobs.map((j) => j.name));
      return enqueueMany(jobs);
    };
    queue.enqueue = (name, payload, options) => {
      queued.push(name);
      return enqueue(name, payload, options);
    };
    try {
      const note = remote.note(bob, "fanned-before-202", { content: "<p>straight to the feeds</p>" });
      const res = await remote.send(`${s.url}/inbox`, remote.create(bob, note));
      assert.equal(res.status, 202, await res.text());
      // No settle(): carol (who follows bob) has it in her home as the answer arrives.
      const home = await s.request("/api/v1/timelines/home", { token: carol.token });
      assert.equal(home.body[0]?.uri, note.id, JSON.stringify(home.body.map((x: any) => x.uri)));
      assert.equal(queued.includes("feeds.fan-out"), false, JSON.stringify(queued));
    } finally {
      queue.enqueueMany = enqueueMany;
      queue.enqueue = enqueue;
    }
  });

  it("reaches every local follower, more than one statement's worth, and a mentioned follower with a direct post", async () => {
    const dan = await remote.addActor("dan");
    const hello = remote.note(dan, "dan-hello");
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(dan, hello))).status, 202);
    const account = await s.ctx.repos.accounts.getByUri(dan.id);
    assert.ok(account);
    const followers: TestUser[] = [];
    for (let i = 0; i < 27; i++) {
      const user = await s.createUser(`fan${i}`);
      await s.follow(user, { account });
      followers.push(user);
    }
    const post = remote.note(dan, "dan-to-followers");
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(dan, post))).status, 202);
    const stored = await s.ctx.repos.statuses.getByUri(post.id);
    assert.ok(stored);
    const holders = await s.ctx.db
      .selectFrom("feeds")
      .select("account_id")
      .where("status_id", "=", stored.id)
      .execute();
    assert.deepEqual(holders.map((h) => String(h.account_id)).sort(), followers.map((f) => f.account.id).sort());
    // Direct: the mentioned follower's home only (not other followers', nor a mentioned stranger's).
    const [fan0, fan1] = followers;
    const direct = remote.note(dan, "dan-direct", {
      to: [fan0.account.uri, aliceUri],
      cc: [],
      tag: [mentionOf(fan0.account.uri, "fan0"), mentionOf(aliceUri, "alice")],
    });
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(dan, direct))).status, 202);
    const dm = await s.ctx.repos.statuses.getByUri(direct.id);
    assert.ok(dm);
    assert.equal(dm.visibility, "direct");
    const dmHolders = await s.ctx.db.selectFrom("feeds").select("account_id").where("status_id", "=", dm.id).execute();
    assert.deepEqual(
      dmHolders.map((h) => String(h.account_id)),
      [fan0.account.id],
    );
    const fan1Home = await s.request("/api/v1/timelines/home", { token: fan1.token });
    assert.equal(fan1Home.body[0]?.uri, post.id);
  });

  it("derives visibility from the audience: followers-only and direct", async () => {
    const priv = remote.note(bob, "3", { to: [bob.followers], cc: [] });
    const direct = remote.note(bob, "4", { to: [aliceUri], cc: [], tag: [mentionOf(aliceUri, "alice")] });
    for (const n of [priv, direct])
      assert.equal((await remote.send(`${s.url}/inbox`, remote.create(bob, n))).status, 202);
    await s.settle();
    const p = await s.ctx.repos.statuses.getByUri(priv.id);
    const d = await s.ctx.repos.statuses.getByUri(direct.id);
    assert.equal(p?.visibility, "private");
    assert.equal(d?.visibility, "direct");
    // The direct message is visible to alice (mentioned) and not to carol (a follower).
    const seen = await s.request(`/api/v1/statuses/${d?.id}`, { token: alice.token });
    assert.equal(seen.status, 200);
    const unseen = await s.request(`/api/v1/statuses/${d?.id}`, { token: carol.token });
    assert.equal(unseen.status, 404);
    const carolSeesPrivate = await s.request(`/api/v1/statuses/${p?.id}`, { token: carol.token });
    assert.equal(carolSeesPrivate.status, 200);
  });

  it("threads a reply onto a local post and counts it", async () => {
    const post = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "parent" },
    });
    assert.equal(post.status, 200);
    const reply = remote.note(bob, "5", {
      inReplyTo: post.body.uri,
      content: "<p>a reply</p>",
      cc: [bob.followers, aliceUri],
      tag: [mentionOf(aliceUri, "alice")],
    });
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(bob, reply))).status, 202);
    await s.settle();
    const ctx = await s.request(`/api/v1/statuses/${post.body.id}/context`, { token: alice.token });
    assert.deepEqual(
      ctx.body.descendants.map((d: any) => d.uri),
      [reply.id],
    );
    const parent = await s.request(`/api/v1/statuses/${post.body.id}`, { token: alice.token });
    assert.equal(parent.body.replies_count, 1);
  });

  it("stores attachments with their remote URL, a poll from a Question, custom emojis and content warnings", async () => {
    const question = {
      ...remote.note(bob, "6", { content: "<p>Pick :blobcat:</p>", summary: "poll inside", sensitive: true }),
      type: "Question",
      endTime: new Date(Date.now() + 3600_000).toISOString(),
      oneOf: [
        { type: "Note", name: "yes", replies: { type: "Collection", totalItems: 3 } },
        { type: "Note", name: "no", replies: { type: "Collection", totalItems: 1 } },
      ],
      votersCount: 4,
      tag: [
        {
          type: "Emoji",
          id: `${remote.origin}/emojis/1`,
          name: ":blobcat:",
          icon: { type: "Image", mediaType: "image/png", url: `${remote.origin}/emoji/blobcat.png` },
        },
      ],
      attachment: [],
    };
    const withMedia = remote.note(bob, "7", {
      attachment: [
        {
          type: "Document",
          mediaType: "image/jpeg",
          url: `${remote.origin}/media/photo.jpg`,
          name: "A photo",
          width: 800,
          height: 600,
        },
      ],
    });
    for (const n of [question, withMedia]) {
      assert.equal((await remote.send(`${s.url}/inbox`, remote.create(bob, n))).status, 202);
    }
    await s.settle({ delayed: false, skip: ["media.cache-remote"], allowDead: true });
    const q = await s.ctx.repos.statuses.getByUri(question.id);
    assert.ok(q);
    const shown = await s.request(`/api/v1/statuses/${q.id}`, { token: alice.token });
    assert.equal(shown.body.spoiler_text, "poll inside");
    assert.equal(shown.body.sensitive, true);
    assert.deepEqual(
      shown.body.poll.options.map((o: any) => [o.title, o.votes_count]),
      [
        ["yes", 3],
        ["no", 1],
      ],
    );
    assert.equal(shown.body.poll.multiple, false);
    assert.equal(shown.body.poll.voters_count, 4);
    assert.deepEqual(
      shown.body.emojis.map((e: any) => [e.shortcode, e.url]),
      [["blobcat", `${remote.origin}/emoji/blobcat.png`]],
    );
    const m = await s.ctx.repos.statuses.getByUri(withMedia.id);
    const media = await s.request(`/api/v1/statuses/${m?.id}`, { token: alice.token });
    assert.equal(media.body.media_attachments.length, 1);
    assert.equal(media.body.media_attachments[0].type, "image");
    assert.equal(media.body.media_attachments[0].remote_url, `${remote.origin}/media/photo.jpg`);
    assert.equal(media.body.media_attachments[0].description, "A photo");
  });

  it("sanitises hostile HTML to Mastodon's allowed elements", async () => {
    const note = remote.note(bob, "8", {
      content:
        '<h1>Title</h1><p onclick="x()">Hi <script>alert(1)</script><img src=x onerror=alert(1)>' +
        '<a href="javascript:alert(1)">js</a> <a href="https://ok.example/" style="color:red" class="evil mention">ok</a>' +
        '</p><iframe src="https://evil.example"></iframe><style>p{}</style><ul><li>item</li></ul>',
    });
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(bob, note))).status, 202);
    await s.settle({ delayed: false, skip: ["media.cache-remote"], allowDead: true });
    const st = await s.ctx.repos.statuses.getByUri(note.id);
    assert.equal(
      st?.content,
      '<p><strong>Title</strong></p><p>Hi <span>js</span> <a href="https://ok.example/" rel="nofollow noopener" target="_blank" class="mention">ok</a></p><ul><li>item</li></ul>',
    );
    assert.equal(st?.text.includes("alert"), false);
  });

  it("does not store a note attributed to someone else", async () => {
    const mallory = await remote.addActor("mallory");
    const note = remote.note(bob, "9", { content: "<p>not from mallory</p>" });
    const res = await remote.send(`${s.url}/inbox`, remote.create(mallory, note));
    assert.equal(res.status, 202);
    await s.settle({ delayed: false, skip: ["media.cache-remote"], allowDead: true });
    assert.equal(await s.ctx.repos.statuses.getByUri(note.id), undefined);
  });

  it("answers 400 to malformed JSON and to an activity that is not valid JSON-LD", async () => {
    const bad = await remote.send(`${s.url}/inbox`, {}, { signer: bob, rawBody: "{not json" });
    assert.equal(bad.status, 400);
    const badLd = await remote.send(
      `${s.url}/inbox`,
      { "@context": "https://www.w3.org/ns/activitystreams", id: 5, type: "Create", actor: bob.id },
      { signer: bob },
    );
    assert.ok(badLd.status >= 400 && badLd.status < 500, `status ${badLd.status}`);
  });
});
