import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { type Page, textOf, WebClient } from "../helpers/web.ts";

/**
 * The public pages (docs/web-profiles.md): profiles and their tabs, posts with their threads,
 * embeds and hashtag pages, as an anonymous reader sees them; nothing private shows.
 */
describe("web: public profiles, posts and hashtag pages", () => {
  let s: TestServer;
  let web: WebClient;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  const ids: Record<string, { id: string; uri: string; url: string }> = {};

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string; uri: string; url: string };
  };
  const png = async () =>
    new Uint8Array(
      await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } })
        .png()
        .toBuffer(),
    );
  const upload = async (u: TestUser, description: string) => {
    const f = new FormData();
    f.append("file", new Blob([await png()]), "a.png");
    f.append("description", description);
    const r = await s.request("/api/v2/media", { method: "POST", token: u.token, multipart: f });
    assert.ok(r.status === 200 || r.status === 202, JSON.stringify(r.body));
    return r.body.id as string;
  };
  /** The visible text of every status card of a page. */
  const cards = (page: Page) => page.doc.querySelectorAll("article.status").map((a) => a.text.replace(/\s+/g, " "));
  const meta = (page: Page, key: string) =>
    page.doc.querySelector(`meta[property="${key}"]`)?.getAttribute("content") ??
    page.doc.querySelector(`meta[name="${key}"]`)?.getAttribute("content");

  before(async () => {
    s = await startTestServer();
    base = s.ctx.config.baseUrl;
    web = new WebClient(s);
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    const fields = JSON.stringify([
      {
        name: "Site",
        value: '<a href="https://alice.example" rel="me">alice.example</a>',
        verified_at: "2026-01-02T03:04:05.000Z",
      },
      { name: "Pronouns :blobcat:", value: "she/her", verified_at: null },
    ]);
    const now = new Date().toISOString();
    await s.ctx.repos.customEmojis.insert({
      id: s.ctx.ids.next(),
      shortcode: "blobcat",
      domain: null,
      image_key: "emoji/blobcat.png",
      image_content_type: "image/png",
      created_at: now,
      updated_at: now,
    });
    await s.ctx.repos.accounts.update(alice.account.id, {
      display_name: "Alice <Liddell>",
      note: "<p>Down the rabbit hole</p>",
      fields,
      fields_source: JSON.stringify([
        { name: "Site", value: "https://alice.example" },
        { name: "Pronouns :blobcat:", value: "she/her" },
      ]),
    });
    await s.ctx.repos.accounts.update(bob.account.id, { hide_collections: true });

    ids.first = await post(alice, { status: "first public words :blobcat:" });
    ids.pinned = await post(alice, { status: "this one is pinned" });
    assert.equal(
      (await s.request(`/api/v1/statuses/${ids.pinned.id}/pin`, { method: "POST", token: alice.token })).status,
      200,
    );
    ids.unlisted = await post(alice, { status: "quiet words #gannettag", visibility: "unlisted" });
    ids.private = await post(alice, { status: "followers secret #gannettag", visibility: "private" });
    ids.direct = await post(alice, { status: "direct secret @bob", visibility: "direct" });
    ids.tagged = await post(alice, { status: "loud words #GannetTag" });
    ids.cw = await post(alice, { status: "behind the warning", spoiler_text: "spoilers <here>" });
    ids.poll = await post(alice, { status: "pick one", poll: { options: ["tea", "coffee"], expires_in: 3600 } });
    await s.request(`/api/v1/polls/${(await s.request(`/api/v1/statuses/${ids.poll.id}`)).body.poll.id}/votes`, {
      method: "POST",
      token: bob.token,
      json: { choices: [1] },
    });
    const media = await upload(alice, "a blue rectangle");
    await s.settle({ delayed: false });
    ids.media = await post(alice, { status: "a picture", media_ids: [media], sensitive: true });

    // A thread: alice's post, bob's public reply, bob's followers-only reply, a remote reply.
    ids.root = await post(alice, { status: "thread root" });
    ids.reply = await post(bob, { status: "public reply", in_reply_to_id: ids.root.id });
    ids.privateReply = await post(bob, { status: "private reply", in_reply_to_id: ids.root.id, visibility: "private" });
    ids.own = await post(alice, { status: "answering myself", in_reply_to_id: ids.root.id });
    ids.toBob = await post(alice, { status: "answering bob", in_reply_to_id: ids.reply.id });
    const remoteId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: remoteId,
      username: "zed",
      domain: "far.example",
      uri: "https://far.example/users/zed",
      url: "https://far.example/@zed",
      created_at: now,
      updated_at: now,
    });
    const remoteReply = s.ctx.ids.next();
    await s.ctx.repos.statuses.insert({
      id: remoteReply,
      uri: "https://far.example/users/zed/statuses/1",
      url: "https://far.example/@zed/1",
      account_id: remoteId,
      text: "",
      content: "<p>from afar</p>",
      visibility: "public",
      sensitive: false,
      local: false,
      in_reply_to_id: ids.root.id,
      in_reply_to_account_id: alice.account.id,
      created_at: now,
      updated_at: now,
    });
    await s.settle({ delayed: false });
  });
  after(() => s.close());

  it("shows a profile: names, bio, fields with verified links, counts, pinned posts first, follow link", async () => {
    const page = await web.get("/@alice");
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.equal(textOf(page.doc, "h1 .display-name"), "Alice <Liddell>");
    assert.match(page.body, /Alice &lt;Liddell&gt;/);
    assert.equal(textOf(page.doc, "h1 .acct"), `@alice@${s.ctx.config.localDomain}`);
    assert.equal(textOf(page.doc, ".note"), "Down the rabbit hole");
    const verified = page.doc.querySelectorAll("dl.fields .field.verified");
    assert.equal(verified.length, 1);
    assert.match(verified[0].text, /Site/);
    assert.ok(verified[0].querySelector('a[href="https://alice.example"]'));
    assert.equal(page.doc.querySelectorAll("dl.fields .field").length, 2);
    // Custom emojis as pictures, in field names and in posts.
    assert.ok(page.doc.querySelector('dl.fields dt img.emoji[alt=":blobcat:"]'));
    assert.ok(page.doc.querySelector('.status-content img.emoji[alt=":blobcat:"]'));
    assert.match(textOf(page.doc, "ul.counts"), /posts.*following.*followers/);
    const follow = page.doc.querySelector(".profile-actions a")?.getAttribute("href") ?? "";
    const u = new URL(follow, base);
    assert.equal(u.pathname, "/remote_interaction");
    assert.equal(u.searchParams.get("type"), "follow");
    assert.equal(u.searchParams.get("uri"), `${base}/users/alice`);

    // Pinned first, then the posts (public and unlisted, no replies), never private or direct.
    const pinned = page.doc.querySelectorAll(".pinned article.status");
    assert.equal(pinned.length, 1);
    assert.match(pinned[0].text, /this one is pinned/);
    const all = cards(page).join("\n");
    assert.match(all, /first public words/);
    assert.match(all, /quiet words/);
    // Replies to others are left out; a thread of one's own stays (as Mastodon's exclude_replies).
    assert.match(all, /answering myself/);
    assert.doesNotMatch(all, /answering bob/);
    assert.doesNotMatch(page.body, /followers secret|direct secret/);
    assert.equal(page.doc.querySelector('nav.tabs a[aria-current="page"]')?.getAttribute("href"), "/@alice");
    assert.equal(page.doc.querySelector('link[type="application/rss+xml"]')?.getAttribute("href"), "/@alice.rss");

    const replies = await web.get("/@alice/with_replies");
    assert.equal(replies.status, 200);
    assert.match(cards(replies).join("\n"), /answering bob/);
    assert.equal(replies.doc.querySelectorAll(".pinned").length, 0);
    assert.doesNotMatch(replies.body, /followers secret|direct secret/);
    const media = await web.get("/@alice/media");
    assert.equal(media.status, 200);
    assert.deepEqual(
      cards(media).map((c) => /a picture/.test(c)),
      [true],
    );
    assert.equal(media.doc.querySelector('nav.tabs a[aria-current="page"]')?.getAttribute("href"), "/@alice/media");
  });

  it("hides the follower and following counts of an account that hides its network; shows boosts", async () => {
    assert.equal(
      (await s.request(`/api/v1/statuses/${ids.first.id}/reblog`, { method: "POST", token: bob.token })).status,
      200,
    );
    const page = await web.get("/@bob");
    assert.equal(page.status, 200);
    const counts = textOf(page.doc, "ul.counts");
    assert.match(counts, /posts?/);
    assert.doesNotMatch(counts, /follow/);
    const boost = page.doc.querySelectorAll("article.status").find((a) => /first public words/.test(a.text));
    assert.ok(boost, "the boost is on the posts tab");
    assert.match(boost.querySelector(".status-prepend")?.text ?? "", /boosted/);
    assert.equal(boost.querySelector("a.status-time")?.getAttribute("href"), ids.first.url);
    assert.equal((await web.get("/@bob/media")).doc.querySelectorAll("article.status").length, 0);
  });

  it("shows a post with the thread an anonymous reader may see; remote posts link to their origin", async () => {
    const page = await web.get(`/@alice/${ids.root.id}`);
    assert.equal(page.status, 200);
    assert.match(textOf(page.doc, "article.status.focal"), /thread root/);
    const replies = page.doc.querySelectorAll(".descendants article.status").map((a) => a.text);
    assert.equal(replies.length, 4);
    assert.match(replies.join("\n"), /public reply/);
    assert.match(replies.join("\n"), /answering myself/);
    assert.match(replies.join("\n"), /from afar/);
    assert.doesNotMatch(page.body, /private reply/);
    const remote = page.doc.querySelectorAll(".descendants article.status").find((a) => /from afar/.test(a.text));
    assert.ok(remote);
    assert.equal(remote.querySelector("a.status-time")?.getAttribute("href"), "https://far.example/@zed/1");
    assert.equal(remote.querySelector("a.status-author")?.getAttribute("href"), "https://far.example/@zed");
    assert.match(remote.text, /@zed@far\.example/);
    // Interaction links name the post's URI.
    const actions = page.doc
      .querySelectorAll("article.status.focal ul.status-actions a")
      .map((a) => new URL(a.getAttribute("href") ?? "", base));
    assert.deepEqual(
      actions.map((u) => u.searchParams.get("type")),
      ["reply", "reblog", "favourite"],
    );
    for (const u of actions) {
      assert.equal(u.pathname, "/remote_interaction");
      assert.equal(u.searchParams.get("uri"), ids.root.uri);
    }
    const counted = (await s.request(`/api/v1/statuses/${ids.root.id}`)).body.replies_count;
    assert.match(textOf(page.doc, "article.status.focal ul.status-actions"), new RegExp(`\\b${counted} repl`));

    // From a reply, the ancestors are shown above it.
    const reply = await web.get(`/@bob/${ids.reply.id}`);
    assert.equal(reply.status, 200);
    assert.match(textOf(reply.doc, ".ancestors"), /thread root/);
    assert.match(textOf(reply.doc, ".descendants"), /answering bob/);
    // Remote accounts have no page here: a browser is sent to their own.
    const zed = await web.get("/@zed@far.example");
    assert.equal(zed.status, 302);
    assert.equal(zed.headers.get("location"), "https://far.example/@zed");
    assert.equal((await web.get("/@nobody@far.example")).status, 404);
    // A reply of the wrong author's URL is not found.
    assert.equal((await web.get(`/@alice/${ids.reply.id}`)).status, 404);
  });

  it("puts content warnings and sensitive media behind a click, and shows poll results read-only", async () => {
    const cw = await web.get(`/@alice/${ids.cw.id}`);
    const details = cw.doc.querySelector("article.status.focal details.cw");
    assert.ok(details);
    assert.match(details.querySelector("summary")?.text ?? "", /spoilers <here>/);
    assert.match(details.querySelector(".status-content")?.text ?? "", /behind the warning/);
    assert.equal(details.hasAttribute("open"), false);
    assert.match(cw.body, /spoilers &lt;here&gt;/);

    const media = await web.get(`/@alice/${ids.media.id}`);
    const sensitive = media.doc.querySelector("article.status.focal details.sensitive");
    assert.ok(sensitive);
    const img = sensitive.querySelector("ul.media img");
    assert.ok(img);
    assert.equal(img.getAttribute("alt"), "a blue rectangle");
    assert.match(img.getAttribute("src") ?? "", /\/system\//);
    // A sensitive picture is not offered as the preview image.
    assert.doesNotMatch(meta(media, "og:image") ?? "", /\/system\/media/);
    assert.equal(meta(media, "twitter:card"), "summary");

    const poll = await web.get(`/@alice/${ids.poll.id}`);
    const options = poll.doc.querySelectorAll(".poll li");
    assert.equal(options.length, 2);
    assert.match(options[0].text, /tea\s+0%/);
    assert.match(options[1].text, /coffee\s+100%/);
    assert.equal(poll.doc.querySelectorAll(".poll meter").length, 2);
    assert.equal(poll.doc.querySelectorAll(".poll input, .poll form").length, 0);
    assert.match(textOf(poll.doc, ".poll"), /1 vote/);
  });

  it("never shows followers-only or direct posts, and answers 410 for deleted posts", async () => {
    for (const id of [ids.private.id, ids.direct.id]) {
      const page = await web.get(`/@alice/${id}`);
      assert.equal(page.status, 404);
      assert.doesNotMatch(page.body, /secret/);
      assert.equal((await web.get(`/@alice/${id}/embed`)).status, 404);
    }
    const privateReply = await web.get(`/@bob/${ids.privateReply.id}`);
    assert.equal(privateReply.status, 404);
    const gone = await post(alice, { status: "soon gone" });
    assert.equal(
      (await s.request(`/api/v1/statuses/${gone.id}`, { method: "DELETE", token: alice.token })).status,
      200,
    );
    const page = await web.get(`/@alice/${gone.id}`);
    assert.equal(page.status, 410);
    assert.doesNotMatch(page.body, /soon gone/);
    // Unknown ids and usernames.
    assert.equal((await web.get("/@alice/99999999999")).status, 404);
    assert.equal((await web.get("/@nobody")).status, 404);
  });

  it("lists only public posts on hashtag pages, whatever case the tag is written in", async () => {
    const page = await web.get("/tags/GannetTag");
    assert.equal(page.status, 200);
    assert.equal(textOf(page.doc, "h1"), "#gannettag");
    const all = cards(page).join("\n");
    assert.match(all, /loud words/);
    assert.doesNotMatch(all, /quiet words/);
    assert.doesNotMatch(page.body, /followers secret/);
    assert.equal(
      page.doc.querySelector('link[type="application/rss+xml"]')?.getAttribute("href"),
      "/tags/gannettag.rss",
    );
    assert.equal((await web.get("/tags/neverused")).status, 404);

    // A limited (silenced) account: its profile says so, its posts stay off hashtag pages.
    const sid = await s.createUser("sid");
    await post(sid, { status: "silenced words #gannettag" });
    await s.ctx.repos.accounts.update(sid.account.id, { silenced_at: new Date().toISOString() });
    assert.doesNotMatch((await web.get("/tags/gannettag")).body, /silenced words/);
    const profile = await web.get("/@sid");
    assert.equal(profile.status, 200);
    assert.match(textOf(profile.doc, ".account-notices"), /limited/);
  });

  it("answers suspended accounts with a 410 page, unconfirmed ones with 404, and honours noindex", async () => {
    const carol = await s.createUser("carol");
    await post(carol, { status: "carol speaks" });
    await s.ctx.repos.accounts.update(carol.account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "local",
    });
    const suspended = await web.get("/@carol");
    assert.equal(suspended.status, 410);
    assert.match(textOf(suspended.doc, "h1"), /suspended/i);
    assert.doesNotMatch(suspended.body, /carol speaks/);

    await s.createUser("dave", { confirmed: false });
    assert.equal((await web.get("/@dave")).status, 404);
    await s.createUser("pending", { approved: false });
    assert.equal((await web.get("/@pending")).status, 404);

    const erin = await s.createUser("erin");
    const erinPost = await post(erin, { status: "hidden from search engines" });
    assert.equal(
      (await web.get("/@alice")).doc.querySelector('meta[name="robots"]'),
      null,
      "an indexable account's profile is not marked noindex",
    );
    await s.ctx.repos.accounts.update(erin.account.id, { indexable: false, discoverable: false });
    for (const path of ["/@erin", `/@erin/${erinPost.id}`]) {
      const page = await web.get(path);
      assert.equal(page.status, 200);
      assert.equal(page.doc.querySelector('meta[name="robots"]')?.getAttribute("content"), "noindex, noarchive", path);
    }
  });

  it("describes profiles and posts with OpenGraph and twitter metadata, and links the oEmbed", async () => {
    const profile = await web.get("/@alice");
    assert.equal(meta(profile, "og:type"), "profile");
    assert.equal(meta(profile, "og:title"), `Alice <Liddell> (@alice@${s.ctx.config.localDomain})`);
    assert.equal(meta(profile, "og:description"), "Down the rabbit hole");
    assert.equal(meta(profile, "og:url"), `${base}/@alice`);
    assert.ok(meta(profile, "og:image"));
    assert.ok(meta(profile, "og:site_name"));
    assert.equal(meta(profile, "profile:username"), `alice@${s.ctx.config.localDomain}`);
    assert.equal(meta(profile, "twitter:card"), "summary");

    const status = await web.get(`/@alice/${ids.first.id}`);
    assert.equal(meta(status, "og:type"), "article");
    assert.equal(meta(status, "og:description"), "first public words :blobcat:");
    assert.equal(meta(status, "og:url"), ids.first.url);
    assert.ok(meta(status, "og:image"));
    assert.ok(meta(status, "twitter:card"));
    const oembed = status.doc.querySelector('link[type="application/json+oembed"]')?.getAttribute("href") ?? "";
    const u = new URL(oembed, base);
    assert.equal(u.pathname, "/api/oembed");
    assert.equal(u.searchParams.get("url"), ids.first.url);
    const cw = await web.get(`/@alice/${ids.cw.id}`);
    assert.equal(meta(cw, "og:description"), "Content warning: spoilers <here>");
    assert.doesNotMatch(cw.body, /content="[^"]*behind the warning/);
  });

  it("lets other sites frame embeds, and no other page", async () => {
    const embed = await web.get(`/@alice/${ids.first.id}/embed`);
    assert.equal(embed.status, 200);
    assert.equal(embed.headers.get("x-frame-options"), null);
    assert.match(embed.headers.get("content-security-policy") ?? "", /frame-ancestors \*/);
    assert.equal(embed.doc.querySelector("header.site"), null);
    assert.match(textOf(embed.doc, "article.status"), /first public words/);
    assert.equal(embed.doc.querySelector("article.status a.status-time")?.getAttribute("target"), "_blank");
    // Unlisted posts may be embedded (as Mastodon's embeds); boosts' and others' URLs may not.
    assert.equal((await web.get(`/@alice/${ids.unlisted.id}/embed`)).status, 200);
    assert.equal((await web.get(`/@bob/${ids.first.id}/embed`)).status, 404);
    for (const path of ["/@alice", `/@alice/${ids.first.id}`, "/tags/gannettag"]) {
      const page = await web.get(path);
      assert.equal(page.headers.get("x-frame-options"), "DENY", path);
      assert.match(page.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/, path);
    }
  });

  it("pages by links: older posts with max_id, newer ones with min_id", async () => {
    const paula = await s.createUser("paula");
    for (let i = 1; i <= 23; i++) await post(paula, { status: `numbered post ${i}` });
    const first = await web.get("/@paula");
    assert.equal(cards(first).length, 20);
    assert.match(cards(first)[0], /numbered post 23\b/);
    assert.equal(first.doc.querySelector('nav.pagination a[rel="prev"]'), null);
    const older = first.doc.querySelector('nav.pagination a[rel="next"]')?.getAttribute("href") ?? "";
    assert.match(older, /^\/@paula\?max_id=\d+$/);
    const second = await web.get(older);
    assert.deepEqual(
      cards(second).map((c) => /numbered post (\d+)/.exec(c)?.[1]),
      ["3", "2", "1"],
    );
    assert.equal(second.doc.querySelector('nav.pagination a[rel="next"]'), null);
    const newer = second.doc.querySelector('nav.pagination a[rel="prev"]')?.getAttribute("href") ?? "";
    assert.match(newer, /^\/@paula\?min_id=\d+$/);
    const back = await web.get(newer);
    assert.equal(cards(back).length, 20);
    assert.match(cards(back).at(-1) ?? "", /numbered post 4\b/);
    // Cursors that are not ids are ignored.
    assert.equal(cards(await web.get("/@paula?max_id=abc")).length, 20);
  });

  it("keeps rendered pages only while nothing they show changed (posts, edits, deletions, pins, profile, replies, suspension)", async () => {
    const kim = await s.createUser("kim");
    const first = await post(kim, { status: "kept one" });
    const one = await web.get("/@kim");
    assert.match(cards(one).join("|"), /kept one/);
    assert.equal((await web.get("/@kim")).body.length, one.body.length, "asked again, the same page");

    // A new post, an edit, a pin and a new display name each show at once.
    await post(kim, { status: "kept two" });
    assert.match(cards(await web.get("/@kim"))[0], /kept two/);
    const edited = await s.request(`/api/v1/statuses/${first.id}`, {
      method: "PUT",
      token: kim.token,
      json: { status: "kept one, edited" },
    });
    assert.equal(edited.status, 200);
    assert.match(cards(await web.get("/@kim")).join("|"), /kept one, edited/);
    assert.equal(
      (await s.request(`/api/v1/statuses/${first.id}/pin`, { method: "POST", token: kim.token })).status,
      200,
    );
    assert.ok((await web.get("/@kim")).doc.querySelector("section.pinned"), "the pinned post shows");
    const renamed = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: kim.token,
      json: { display_name: "Kim Renamed" },
    });
    assert.equal(renamed.status, 200);
    assert.match(textOf((await web.get("/@kim")).doc, "h1"), /Kim Renamed/);

    // A post's page shows a new reply and its deletion.
    const page = `/@kim/${first.id}`;
    assert.doesNotMatch((await web.get(page)).body, /a kept reply/);
    const reply = await post(bob, { status: "@kim a kept reply", in_reply_to_id: first.id });
    assert.match((await web.get(page)).body, /a kept reply/);
    assert.equal((await s.request(`/api/v1/statuses/${reply.id}`, { method: "DELETE", token: bob.token })).status, 200);
    assert.doesNotMatch((await web.get(page)).body, /a kept reply/);
    assert.equal((await s.request(`/api/v1/statuses/${first.id}`, { method: "DELETE", token: kim.token })).status, 200);
    assert.equal((await web.get(page)).status, 410);
    assert.doesNotMatch((await web.get("/@kim")).body, /kept one/);

    await s.ctx.repos.accounts.update(kim.account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "local",
    });
    assert.equal((await web.get("/@kim")).status, 410);
  });
});
