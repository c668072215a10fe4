import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { queuePreviewCard } from "../../src/services/preview-cards/fetch-card.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/** A loopback web site: an article with OpenGraph tags, its image, and a page without a title. */
async function startSite(): Promise<{
  url: string;
  hits: string[];
  publishLate(): void;
  releaseArticle(): void;
  close(): Promise<void>;
}> {
  const image = await sharp({ create: { width: 1200, height: 630, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();
  const hits: string[] = [];
  let late = false;
  // `/article` answers once the test says so: a fast job queue could otherwise fetch the card
  // before the post's own answer is written, and the test checks that it does not wait for it.
  let releaseArticle = () => {};
  const articleGate = new Promise<void>((resolve) => {
    releaseArticle = resolve;
  });
  const server: Server = createServer(async (req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/article") await articleGate;
    if (req.url === "/article" || req.url === "/other") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="fr"><head>
        <title>Fallback title</title>
        <meta property="og:title" content="Gannets &amp; boobies ${req.url === "/other" ? "(other)" : ""}">
        <meta property="og:description" content="  Seabirds   that dive. ">
        <meta property="og:image" content="/image.png">
        <meta property="og:image:alt" content="A blue square">
        <meta property="og:site_name" content="Bird News">
        <meta name="author" content="Ann Auk">
        <meta property="article:published_time" content="2026-01-02T03:04:05Z">
        </head><body><p>Hello</p></body></html>`);
    } else if (req.url === "/image.png") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(image);
    } else if (req.url === "/late" && late) {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<html><head><meta property="og:title" content="Late news"></head></html>`);
    } else if (req.url === "/video") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<html><head><title>Video page</title>
        <link rel="alternate" type="application/json+oembed" href="/oembed?format=json"></head></html>`);
    } else if (req.url === "/oembed?format=json") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "video",
          version: "1.0",
          title: "A dive in slow motion",
          author_name: "Vid Maker",
          author_url: "https://tube.example/@vid",
          provider_name: "Tube",
          provider_url: "https://tube.example/",
          html: '<iframe src="https://tube.example/embed/1" width="480" height="270" allowfullscreen onload="steal()"></iframe><script>steal()</script>',
          width: 480,
          height: 270,
          thumbnail_url: `http://127.0.0.1:${(server.address() as { port: number }).port}/image.png`,
        }),
      );
    } else if (req.url === "/untitled") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><head></head><body>no title</body></html>");
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    publishLate: () => {
      late = true;
    },
    releaseArticle: () => releaseArticle(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("preview cards", () => {
  let s: TestServer;
  let site: Awaited<ReturnType<typeof startSite>>;
  let alice: TestUser;
  let bob: TestUser;

  const post = (u: TestUser, status: string) =>
    s.request("/api/v1/statuses", { method: "POST", token: u.token, json: { status } });

  before(async () => {
    site = await startSite();
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    await s.follow(bob, alice);
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  it("fetches the first link's OpenGraph card in the background, with its image stored here", async () => {
    const r = await post(
      alice,
      `Read ${s.ctx.config.baseUrl}/@alice first, then ${site.url}/article and ${site.url}/other`,
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.card, null, "the answer does not wait for the card");
    site.releaseArticle();
    await s.settle();
    const home = await s.request("/api/v1/timelines/home", { token: bob.token });
    const card = home.body[0].card;
    assert.ok(card, "the card shows in the home timeline");
    assert.deepEqual(Object.keys(card), [
      "url",
      "title",
      "description",
      "language",
      "type",
      "author_name",
      "author_url",
      "provider_name",
      "provider_url",
      "html",
      "width",
      "height",
      "image",
      "image_description",
      "embed_url",
      "blurhash",
      "published_at",
      "authors",
    ]);
    assert.equal(card.url, `${site.url}/article`, "the first link not to this server");
    assert.equal(card.title, "Gannets & boobies");
    assert.equal(card.description, "Seabirds that dive.");
    assert.equal(card.type, "link");
    assert.equal(card.provider_name, "Bird News");
    assert.equal(card.author_name, "Ann Auk");
    assert.equal(card.language, "fr");
    assert.equal(card.image_description, "A blue square");
    assert.equal(card.published_at, "2026-01-02T03:04:05.000Z");
    assert.deepEqual(card.authors, [{ name: "Ann Auk", url: "", account: null }]);
    assert.deepEqual([card.width, card.height], [640, 336], "the image is fitted inside 640 px");
    assert.equal(typeof card.blurhash, "string");
    assert.ok(card.image.startsWith(`${s.ctx.config.baseUrl}/system/cache/preview_cards/`), card.image);
    const img = await fetch(`${s.url}${new URL(card.image).pathname}`);
    assert.equal(img.status, 200);
    assert.equal((await sharp(Buffer.from(await img.arrayBuffer())).metadata()).width, 640);

    const one = await s.request(`/api/v1/statuses/${r.body.id}`);
    assert.deepEqual(one.body.card, card);
    const old = await s.request(`/api/v1/statuses/${r.body.id}/card`);
    assert.deepEqual(old.body, card);
  });

  it("uses the page's oEmbed answer when it links one, with the player HTML sanitised", async () => {
    const r = await post(alice, `Watch ${site.url}/video`);
    await s.settle();
    const card = (await s.request(`/api/v1/statuses/${r.body.id}`)).body.card;
    assert.equal(card.type, "video");
    assert.equal(card.title, "A dive in slow motion");
    assert.equal(card.provider_name, "Tube");
    assert.equal(card.provider_url, "https://tube.example/");
    assert.equal(card.author_name, "Vid Maker");
    assert.deepEqual([card.width, card.height], [480, 270]);
    assert.equal(
      card.html,
      '<iframe src="https://tube.example/embed/1" width="480" height="270" allowfullscreen></iframe>',
      "no script, no event handler",
    );
    assert.ok(card.image, "the thumbnail is the image");
  });

  it("shares one card between statuses linking to the same page, fetching it once", async () => {
    const n = site.hits.filter((h) => h === "/article").length;
    const r = await post(bob, `Me too: ${site.url}/article`);
    await s.settle();
    assert.equal(site.hits.filter((h) => h === "/article").length, n, "a fresh card is reused");
    assert.equal((await s.request(`/api/v1/statuses/${r.body.id}`)).body.card.title, "Gannets & boobies");
  });

  it("skips mentions and hashtags, gives no card for a page without a title, and drops it when an edit removes the link", async () => {
    const none = await post(alice, `Hi @bob #birds ${site.url}/untitled`);
    await s.settle();
    assert.equal((await s.request(`/api/v1/statuses/${none.body.id}`)).body.card, null);
    assert.deepEqual((await s.request(`/api/v1/statuses/${none.body.id}/card`)).body, {});

    // The home timeline keeps rendered statuses (statuses/kept.ts): a card added or removed shows there.
    const r = await post(alice, "Look #birds");
    await s.settle();
    const homeCard = async () =>
      (await s.request("/api/v1/timelines/home", { token: bob.token })).body.find(
        (x: { id: string }) => x.id === r.body.id,
      ).card;
    assert.equal(await homeCard(), null);
    await s.request(`/api/v1/statuses/${r.body.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: `Look #birds ${site.url}/other` },
    });
    await s.settle();
    assert.equal((await homeCard())?.title, "Gannets & boobies (other)", "kept render dropped");
    assert.equal((await s.request(`/api/v1/statuses/${r.body.id}`)).body.card.title, "Gannets & boobies (other)");
    const edit = await s.request(`/api/v1/statuses/${r.body.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "No link any more" },
    });
    assert.equal(edit.status, 200);
    await s.settle();
    assert.equal((await s.request(`/api/v1/statuses/${r.body.id}`)).body.card, null);
    assert.equal(await homeCard(), null, "kept render dropped");
  });

  it("a card found later shows in kept renders without any change to the status (queuePreviewCard)", async () => {
    const r = await post(alice, `Soon: ${site.url}/late`);
    await s.settle();
    const homeCard = async () =>
      (await s.request("/api/v1/timelines/home", { token: bob.token })).body.find(
        (x: { id: string }) => x.id === r.body.id,
      ).card;
    assert.equal(await homeCard(), null, "the page was not there yet");
    site.publishLate();
    await queuePreviewCard(s.ctx, r.body.id);
    await s.settle();
    assert.equal((await homeCard())?.title, "Late news");
  });

  it("refuses a private address unless ALLOWED_PRIVATE_ADDRESSES lists it", async () => {
    const strict = await startTestServer();
    try {
      const carol = await strict.createUser("carol");
      const hits = site.hits.length;
      const r = await strict.request("/api/v1/statuses", {
        method: "POST",
        token: carol.token,
        json: { status: `Private: ${site.url}/article` },
      });
      await strict.settle();
      assert.equal((await strict.request(`/api/v1/statuses/${r.body.id}`)).body.card, null);
      assert.equal(site.hits.length, hits, "the loopback site was never contacted");
    } finally {
      await strict.close();
    }
  });
});
