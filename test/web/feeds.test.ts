import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { alertText, findForm, type Page, textOf, WebClient } from "../helpers/web.ts";

/** A strictly parsed XML element (the test refuses anything not well-formed). */
interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&([^;]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(";")) throw new Error(`bare & in ${JSON.stringify(s.slice(0, 80))}`);
    if (name in ENTITIES) return ENTITIES[name];
    const m = /^#(x[0-9a-f]+|[0-9]+)$/i.exec(name);
    if (!m) throw new Error(`unknown entity &${name};`);
    return String.fromCodePoint(m[1][0] === "x" ? Number.parseInt(m[1].slice(1), 16) : Number(m[1]));
  });
}

/** A small strict XML reader: one root, matched tags, quoted attributes, known entities, no stray `<`. */
function parseXml(xml: string): El {
  let i = 0;
  const root: El = { name: "#document", attrs: {}, children: [], text: "" };
  const stack: El[] = [root];
  if (xml.startsWith("<?xml")) i = xml.indexOf("?>") + 2;
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (text.includes(">")) throw new Error(`stray > in text ${JSON.stringify(text.slice(0, 80))}`);
    stack[stack.length - 1].text += decode(text);
    if (lt < 0) break;
    const gt = xml.indexOf(">", lt);
    assert.ok(gt > 0, "unclosed tag");
    const tag = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith("/")) {
      const open = stack.pop();
      assert.equal(open?.name, tag.slice(1).trim(), "mismatched closing tag");
      continue;
    }
    const selfClosing = tag.endsWith("/");
    const m = /^([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"<]*")*)\s*\/?$/.exec(tag);
    assert.ok(m, `malformed tag <${tag}>`);
    const attrs: Record<string, string> = {};
    for (const a of m[2].matchAll(/([A-Za-z_][\w.:-]*)="([^"]*)"/g)) attrs[a[1]] = decode(a[2]);
    const el: El = { name: m[1], attrs, children: [], text: "" };
    stack[stack.length - 1].children.push(el);
    if (!selfClosing) stack.push(el);
  }
  assert.equal(stack.length, 1, "unclosed elements");
  assert.equal(root.children.length, 1, "one root element");
  return root.children[0];
}

const child = (e: El, name: string): El | undefined => e.children.find((c) => c.name === name);
const children = (e: El, name: string): El[] => e.children.filter((c) => c.name === name);

/** A loopback stand-in for the visitor's server: WebFinger with (or without) a subscribe template. */
async function fakeHomeServer(): Promise<{ server: Server; domain: string; origin: string; asked: string[] }> {
  const asked: string[] = [];
  let origin = "";
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    asked.push(`${url.pathname}${url.search}`);
    const resource = url.searchParams.get("resource") ?? "";
    if (url.pathname !== "/.well-known/webfinger" || resource.startsWith("acct:nobody@")) {
      res.writeHead(404).end();
      return;
    }
    const links: unknown[] = [{ rel: "self", type: "application/activity+json", href: `${origin}/users/x` }];
    if (!resource.startsWith("acct:plain@")) {
      links.push({
        rel: "http://ostatus.org/schema/1.0/subscribe",
        template: `${origin}/authorize_interaction?uri={uri}`,
      });
    }
    res.writeHead(200, { "content-type": "application/jrd+json" });
    res.end(JSON.stringify({ subject: resource, links }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  origin = `http://127.0.0.1:${port}`;
  return { server, domain: `127.0.0.1:${port}`, origin, asked };
}

async function signIn(s: TestServer, user: TestUser): Promise<WebClient> {
  const web = new WebClient(s);
  const page = await web.get("/auth/sign_in");
  const done = await web.submit(page, "/auth/sign_in", {
    email: `${user.account.username}@example.com`,
    password: user.password,
  });
  assert.equal(done.status, 302, done.body);
  return web;
}

/** The index of the form posting `intent` to /authorize_interaction. */
function intentForm(page: Page, intent: string): number {
  const forms = page.doc.querySelectorAll('form[action="/authorize_interaction"]');
  const i = forms.findIndex((f) => f.querySelector(`input[name="intent"][value="${intent}"]`));
  assert.ok(i >= 0, `no ${intent} form in:\n${page.body.slice(0, 3000)}`);
  return i;
}

describe("web feeds: RSS, oEmbed and remote interaction", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let home: Awaited<ReturnType<typeof fakeHomeServer>>;
  const posts: Record<string, { id: string; uri: string; url: string }> = {};

  const post = async (user: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: user.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string; uri: string; url: string };
  };

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    home = await fakeHomeServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    await s.createUser("carol", { confirmed: false });
    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "pic.png");
    form.append("description", "A blue square");
    const media = await s.request("/api/v1/media", { method: "POST", token: alice.token, multipart: form });
    assert.equal(media.status, 200, JSON.stringify(media.body));
    posts.plain = await post(alice, { status: "Plain public post", visibility: "public" });
    posts.media = await post(alice, {
      status: "Hello #FeedTest <b>world</b> & more",
      visibility: "public",
      media_ids: [media.body.id],
    });
    posts.cw = await post(alice, {
      status: "Behind a warning #feedtest",
      spoiler_text: "Spoilers",
      visibility: "public",
    });
    posts.unlisted = await post(alice, { status: "Unlisted secret #feedtest", visibility: "unlisted" });
    posts.private = await post(alice, { status: "Private secret #feedtest", visibility: "private" });
    posts.direct = await post(alice, { status: "@bob Direct secret #feedtest", visibility: "direct" });
    const bobs = await post(bob, { status: "Bob's #feedtest post", visibility: "public" });
    posts.bob = bobs;
    posts.reply = await post(alice, { status: "@bob a reply", in_reply_to_id: bobs.id, visibility: "public" });
  });
  after(async () => {
    home.server.close();
    await s.close();
  });

  it("serves a profile's public posts as RSS: valid XML, items, enclosure, nothing unlisted or private", async () => {
    const r = await s.request<string>("/@alice.rss");
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "application/rss+xml; charset=utf-8");
    assert.match(r.headers.get("cache-control") ?? "", /^public, max-age=\d+$/);
    for (const secret of ["Unlisted secret", "Private secret", "Direct secret", "a reply"]) {
      assert.doesNotMatch(r.body, new RegExp(secret));
    }
    const rss = parseXml(r.body);
    assert.equal(rss.name, "rss");
    assert.equal(rss.attrs.version, "2.0");
    const channel = child(rss, "channel");
    assert.ok(channel);
    assert.equal(child(channel, "title")?.text, "alice");
    assert.equal(child(channel, "link")?.text, `${s.ctx.config.baseUrl}/@alice`);
    assert.ok(child(child(channel, "image") ?? channel, "url")?.text.startsWith("http"));
    const items = children(channel, "item");
    assert.deepEqual(
      items.map((i) => child(i, "link")?.text),
      [posts.cw.url, posts.media.url, posts.plain.url],
    );
    const [cw, withMedia] = items;
    assert.equal(child(withMedia, "guid")?.text, posts.media.url);
    assert.match(child(withMedia, "pubDate")?.text ?? "", /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    // The description is the post's HTML, escaped once: its text escaped twice over.
    const description = child(withMedia, "description")?.text ?? "";
    assert.match(
      description,
      /^<p>Hello <a [^>]*>#<span>FeedTest<\/span><\/a> &lt;b&gt;world&lt;\/b&gt; &amp; more<\/p>$/,
    );
    const enclosure = child(withMedia, "enclosure");
    assert.ok(enclosure, "an enclosure");
    assert.equal(enclosure.attrs.type, "image/png");
    assert.ok(Number(enclosure.attrs.length) > 0);
    const file = await fetch(enclosure.attrs.url);
    assert.equal(file.status, 200);
    const media = child(withMedia, "media:content");
    assert.equal(media?.attrs.medium, "image");
    assert.equal(child(media ?? withMedia, "media:description")?.text, "A blue square");
    assert.deepEqual(
      children(withMedia, "category").map((c) => c.text),
      ["FeedTest"],
    );
    assert.match(child(cw, "description")?.text ?? "", /^<p><strong>Content warning:<\/strong> Spoilers<\/p><hr \/>/);

    const tagged = parseXml((await s.request<string>("/@alice.rss?tag=feedtest")).body);
    assert.deepEqual(
      children(child(tagged, "channel") as El, "item").map((i) => child(i, "link")?.text),
      [posts.cw.url, posts.media.url],
    );
    const limited = parseXml((await s.request<string>("/@alice.rss?limit=1")).body);
    assert.equal(children(child(limited, "channel") as El, "item").length, 1);
    for (const path of ["/@nobody.rss", "/@carol.rss"]) assert.equal((await s.request(path)).status, 404, path);
  });

  it("serves a hashtag's public posts as RSS, local and remote, never unlisted, private or direct", async () => {
    const r = await s.request<string>("/tags/feedtest.rss");
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "application/rss+xml; charset=utf-8");
    assert.match(r.headers.get("cache-control") ?? "", /^public/);
    assert.doesNotMatch(r.body, /secret/);
    const channel = child(parseXml(r.body), "channel") as El;
    assert.equal(child(channel, "title")?.text, "#FeedTest");
    assert.equal(child(channel, "link")?.text, `${s.ctx.config.baseUrl}/tags/feedtest`);
    assert.deepEqual(
      children(channel, "item").map((i) => child(i, "link")?.text),
      [posts.bob.url, posts.cw.url, posts.media.url],
    );
    assert.ok(child(children(channel, "item")[2], "enclosure"));
    // Asked again (kept renders), the same body.
    assert.equal((await s.request<string>("/tags/FEEDTEST.rss")).body, r.body);
    assert.equal((await s.request("/tags/feedtest.rss?local=true")).status, 200);
    assert.equal((await s.request("/tags/nosuchtag.rss")).status, 404);
  });

  it("answers oEmbed for public and unlisted posts with an iframe of the embed page, 404 otherwise", async () => {
    const base = s.ctx.config.baseUrl;
    const r = await s.request(`/api/oembed?url=${encodeURIComponent(posts.media.url)}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "rich");
    assert.equal(r.body.version, "1.0");
    assert.equal(r.body.author_name, "alice");
    assert.equal(r.body.author_url, `${base}/@alice`);
    assert.equal(r.body.provider_name, s.ctx.config.localDomain);
    assert.equal(r.body.width, 400);
    assert.equal(r.body.height, null);
    assert.match(r.body.html, new RegExp(`^<iframe src="${base}/@alice/${posts.media.id}/embed"[^>]* width="400"`));
    const sized = await s.request(
      `/api/oembed?url=${encodeURIComponent(posts.unlisted.uri)}&maxwidth=300&maxheight=200`,
    );
    assert.equal(sized.status, 200);
    assert.equal(sized.body.width, 300);
    assert.match(sized.body.html, /width="300" height="200"/);
    for (const url of [
      posts.private.url,
      posts.direct.uri,
      `${base}/@alice/99999999`,
      "https://elsewhere.example/@alice/1",
    ]) {
      const no = await s.request(`/api/oembed?url=${encodeURIComponent(url)}`);
      assert.equal(no.status, 404, url);
      assert.deepEqual(no.body, { error: "Record not found" });
    }
    assert.equal((await s.request("/api/oembed")).status, 400);
  });

  it("asks a visitor's handle and sends them to their server's subscribe template", async () => {
    const web = new WebClient(s);
    const page = await web.get(`/remote_interaction?uri=${encodeURIComponent(posts.media.uri)}&type=favourite`);
    assert.equal(page.status, 200);
    assert.match(textOf(page.doc, "h1"), /Favourite alice's post/);
    assert.match(textOf(page.doc, ".interaction-content"), /Hello #FeedTest <b>world<\/b> & more/);
    assert.match(page.headers.get("content-security-policy") ?? "", /form-action 'self' https: http:/);
    const label = page.doc.querySelector('label[for="acct"]');
    assert.ok(label);

    const bad = await web.submit(page, "/remote_interaction", { acct: "not a handle" });
    assert.equal(bad.status, 422);
    assert.match(alertText(bad.doc) ?? "", /user@server/);
    assert.equal(bad.doc.querySelector("#acct")?.getAttribute("aria-describedby"), "acct-hint acct-error");

    const noTemplate = await web.submit(page, "/remote_interaction", { acct: `plain@${home.domain}` });
    assert.equal(noTemplate.status, 502);
    assert.match(alertText(noTemplate.doc) ?? "", /does not say where/);
    const unknown = await web.submit(page, "/remote_interaction", { acct: `nobody@${home.domain}` });
    assert.equal(unknown.status, 502);
    assert.match(alertText(unknown.doc) ?? "", /could not be reached/);

    const forged = await web.submit(page, "/remote_interaction", {
      acct: `me@${home.domain}`,
      authenticity_token: "x",
    });
    assert.equal(forged.status, 422);

    const go = await web.submit(page, "/remote_interaction", { acct: `@me@${home.domain}` });
    assert.equal(go.status, 303);
    assert.equal(
      go.headers.get("location"),
      `${home.origin}/authorize_interaction?uri=${encodeURIComponent(posts.media.uri)}`,
    );
    assert.ok(home.asked.includes(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:me@${home.domain}`)}`));
    // The handle is remembered for the next visit.
    const again = await web.get(`/remote_interaction?uri=${encodeURIComponent(alice.account.uri)}&type=follow`);
    assert.match(textOf(again.doc, "h1"), /Follow alice/);
    assert.equal(again.doc.querySelector("#acct")?.getAttribute("value"), `@me@${home.domain}`);

    for (const uri of [posts.private.uri, "https://elsewhere.example/users/x", ""]) {
      assert.equal((await web.get(`/remote_interaction?uri=${encodeURIComponent(uri)}`)).status, 404, uri);
    }
  });

  it("lets a signed-in user follow, favourite and reply through /authorize_interaction forms", async () => {
    const anonymous = await s.request(`/authorize_interaction?uri=${encodeURIComponent(alice.account.uri)}`);
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=/);

    const web = await signIn(s, bob);
    const sent = await web.get(`/remote_interaction?uri=${encodeURIComponent(posts.media.uri)}`);
    assert.equal(sent.status, 302);
    assert.equal(sent.headers.get("location"), `/authorize_interaction?uri=${encodeURIComponent(posts.media.uri)}`);

    // An account by acct: URI, followed through the form.
    const acct = `acct:alice@${s.ctx.config.localDomain}`;
    const profile = await web.get(`/authorize_interaction?uri=${encodeURIComponent(acct)}`);
    assert.equal(profile.status, 200);
    assert.match(textOf(profile.doc, "h1"), /Follow alice/);
    const followed = await web.submit(profile, "/authorize_interaction", {}, { index: intentForm(profile, "follow") });
    assert.equal(followed.status, 303);
    const after = await web.follow(followed);
    assert.match(textOf(after.doc, ".notice"), /You now follow/);
    intentForm(after, "unfollow");
    const rel = await s.request(`/api/v1/accounts/relationships?id[]=${alice.account.id}`, { token: bob.token });
    assert.equal(rel.body[0].following, true);

    // A post by its page URL: a forged token changes nothing, the form's own token favourites.
    const postPage = await web.get(`/authorize_interaction?uri=${encodeURIComponent(posts.media.url)}`);
    assert.equal(postPage.status, 200);
    const fav = intentForm(postPage, "favourite");
    const forged = await web.submit(
      postPage,
      "/authorize_interaction",
      { authenticity_token: "forged" },
      { index: fav },
    );
    assert.equal(forged.status, 422);
    let seen = await s.request(`/api/v1/statuses/${posts.media.id}`, { token: bob.token });
    assert.equal(seen.body.favourited, false);
    const faved = await web.submit(postPage, "/authorize_interaction", {}, { index: fav });
    assert.equal(faved.status, 303);
    seen = await s.request(`/api/v1/statuses/${posts.media.id}`, { token: bob.token });
    assert.equal(seen.body.favourited, true);
    const afterFav = await web.follow(faved);
    intentForm(afterFav, "unfavourite");

    // A reply: too long is refused next to the field, kept; then posted.
    const replyForm = findForm(afterFav.doc, "/authorize_interaction", intentForm(afterFav, "reply"));
    assert.equal(replyForm.querySelector("textarea")?.text, `@alice@${s.ctx.config.localDomain} `);
    const long = await web.submit(
      afterFav,
      "/authorize_interaction",
      { status: "x".repeat(600) },
      {
        index: intentForm(afterFav, "reply"),
      },
    );
    assert.equal(long.status, 422);
    assert.ok(alertText(long.doc));
    assert.equal(long.doc.querySelector("textarea")?.text, "x".repeat(600));
    const replied = await web.submit(
      afterFav,
      "/authorize_interaction",
      { status: "Nice one!", visibility: "unlisted" },
      {
        index: intentForm(afterFav, "reply"),
      },
    );
    assert.equal(replied.status, 303);
    const context = await s.request(`/api/v1/statuses/${posts.media.id}/context`, { token: bob.token });
    const reply = context.body.descendants.find((d: { account: { id: string } }) => d.account.id === bob.account.id);
    assert.ok(reply, "the reply is in the thread");
    assert.equal(reply.visibility, "unlisted");
    assert.match(reply.content, /Nice one!/);

    // Bob follows alice now: her followers-only post is his to see; an unknown or unconfirmed one is not.
    assert.equal((await web.get(`/authorize_interaction?uri=${encodeURIComponent(posts.private.uri)}`)).status, 200);
    const domain = s.ctx.config.localDomain;
    for (const uri of [`${s.ctx.config.baseUrl}/@alice/99999999`, `acct:nobody@${domain}`, `acct:carol@${domain}`]) {
      assert.equal((await web.get(`/authorize_interaction?uri=${encodeURIComponent(uri)}`)).status, 404, uri);
    }
  });

  it("resolves a remote account by acct: URI and follows it from /authorize_interaction", async () => {
    const remote = await FakeRemote.start();
    try {
      const dana = await remote.addActor("dana");
      const web = await signIn(s, alice);
      const uri = `acct:dana@${remote.domain}`;
      const page = await web.get(`/authorize_interaction?uri=${encodeURIComponent(uri)}`);
      assert.equal(page.status, 200, page.body);
      assert.match(textOf(page.doc, "h1"), /Follow dana \(remote\)/);
      assert.match(textOf(page.doc, ".interaction-object"), new RegExp(`@dana@${remote.domain}`));
      const done = await web.submit(page, "/authorize_interaction", {}, { index: intentForm(page, "follow") });
      assert.equal(done.status, 303);
      const after = await web.follow(done);
      assert.match(textOf(after.doc, "main"), /waiting for approval/);
      intentForm(after, "unfollow");
      await s.settle({ delayed: false });
      const follow = remote.receivedOfType("Follow").at(-1);
      assert.equal(follow?.body.object, dana.id);
      assert.equal(follow?.signed, true);

      // A remote post by its URI: fetched, stored, shown; it then joins the hashtag's feed.
      const note = remote.note(dana, "1", {
        content: '<p>From afar <a href="https://x.example/tags/feedtest" rel="tag">#<span>feedtest</span></a></p>',
        tag: [{ type: "Hashtag", name: "#feedtest", href: "https://x.example/tags/feedtest" }],
      });
      remote.serve(note);
      const postPage = await web.get(`/authorize_interaction?uri=${encodeURIComponent(note.id)}`);
      assert.equal(postPage.status, 200, postPage.body);
      assert.match(textOf(postPage.doc, ".interaction-content"), /From afar/);
      intentForm(postPage, "favourite");
      const feed = parseXml((await s.request<string>("/tags/feedtest.rss")).body);
      assert.equal(child(children(child(feed, "channel") as El, "item")[0], "link")?.text, note.url);
    } finally {
      await remote.close();
    }
  });

  it("advertises the subscribe template in WebFinger answers for local users", async () => {
    const r = await s.request(
      `/.well-known/webfinger?resource=${encodeURIComponent(`acct:alice@${s.ctx.config.localDomain}`)}`,
    );
    assert.equal(r.status, 200);
    const link = r.body.links.find((l: { rel: string }) => l.rel === "http://ostatus.org/schema/1.0/subscribe");
    assert.deepEqual(link, {
      rel: "http://ostatus.org/schema/1.0/subscribe",
      template: `${s.ctx.config.baseUrl}/authorize_interaction?uri={uri}`,
    });
  });
});
