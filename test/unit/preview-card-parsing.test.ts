import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cardLinkOf } from "../../src/services/preview-cards/links.ts";
import { decodeEntities, parsePageDetails } from "../../src/services/preview-cards/opengraph.ts";

describe("preview card parsing", () => {
  it("reads OpenGraph first, then Twitter and plain HTML tags, ignoring comments and scripts", () => {
    const d = parsePageDetails(
      `<!doctype html><html lang="de-AT"><head>
      <!-- <meta property="og:title" content="commented out"> -->
      <script>document.write('<meta property="og:title" content="scripted">')</script>
      <meta name="twitter:title" content="Twitter title">
      <meta content="OG &quot;title&quot; &#x2014; &#8212;" property="og:title">
      <meta name=description content='Plain description'>
      <meta property="og:image" content="//cdn.example/i.png">
      <meta name="author" content="https://example.com/~ann">
      <link rel="alternate" type="application/json+oembed" href="/oembed?u=1&amp;f=json">
      <title>Page title</title></head><body><meta property="og:site_name" content="in the body"></body>`,
      "https://example.com/post/1",
    );
    assert.equal(d.title, 'OG "title" — —');
    assert.equal(d.description, "Plain description");
    assert.equal(d.image, "https://cdn.example/i.png");
    assert.equal(d.authorName, "", "an author given as a URL is the author's URL");
    assert.equal(d.authorUrl, "https://example.com/~ann");
    assert.equal(d.siteName, "", "only the head is read");
    assert.equal(d.language, "de");
    assert.equal(d.oembed, "https://example.com/oembed?u=1&f=json");
  });

  it("falls back to <title>, stops at an unclosed tag, and refuses non-http images", () => {
    const d = parsePageDetails(
      `<head><title>Only &amp; a title</title><meta property="og:image" content="javascript:alert(1)"><meta name="x"`,
      "https://example.com/",
    );
    assert.equal(d.title, "Only & a title");
    assert.equal(d.image, undefined);
    assert.equal(decodeEntities("&bogus; &#0; &#x110000;"), "&bogus; &#0; &#x110000;");
  });

  it("picks the first link that is not a mention, a hashtag or this server", () => {
    const opts = { localHosts: ["social.example"], mentionUrls: new Set(["https://remote.example/@bob"]) };
    const remote = (content: string) => cardLinkOf({ local: false, text: "", content }, opts);
    assert.equal(
      remote(
        `<p><span class="h-card"><a href="https://remote.example/@bob" class="u-url mention">@<span>bob</span></a></span>
        <a href="https://remote.example/tags/x" rel="tag">#x</a>
        <a href="https://remote.example/@carol">@carol</a>
        <a href="https://social.example/@alice">mine</a>
        <a href="https://remote.example/@bob">bob's profile</a>
        <a href="ftp://files.example/">ftp</a>
        <a href="https://news.example/a?b=1&amp;c=2">news</a></p>`,
      ),
      "https://news.example/a?b=1&c=2",
    );
    assert.equal(remote("<p>no links</p>"), undefined);
    const local = (text: string) => cardLinkOf({ local: true, text, content: "" }, opts);
    assert.equal(
      local("see @bob@remote.example #tag https://social.example/x and https://a.example/b."),
      "https://a.example/b",
    );
  });
});
