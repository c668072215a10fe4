import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractEntities } from "../../src/lib/text/entities.ts";
import { escapeHtml } from "../../src/lib/text/escape.ts";
import { plainTextToHtml, renderLink } from "../../src/lib/text/plain-text-to-html.ts";

describe("plain text to HTML", () => {
  it("escapes markup", () => {
    assert.equal(
      plainTextToHtml(`<script>alert("x")</script> & 'q'`),
      "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</p>",
    );
    assert.equal(escapeHtml(`<a href="x">`), "&lt;a href=&quot;x&quot;&gt;");
  });

  it("makes paragraphs and line breaks", () => {
    assert.equal(plainTextToHtml("one\ntwo\n\nthree"), "<p>one<br />two</p><p>three</p>");
    assert.equal(plainTextToHtml("a\r\nb\r\n\r\n\r\nc\n"), "<p>a<br />b</p><p>c</p>");
    assert.equal(plainTextToHtml(""), "");
    assert.equal(plainTextToHtml("  \n \n"), "");
    assert.equal(plainTextToHtml("a\nb", { multiline: false }), "a\nb");
  });

  it("links URLs as Mastodon shows them", () => {
    assert.equal(
      plainTextToHtml("see https://example.com/x."),
      '<p>see <a href="https://example.com/x" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="">example.com/x</span><span class="invisible"></span></a>.</p>',
    );
    const long = renderLink("https://www.example.com/0123456789012345678901234567890123456789");
    assert.ok(long.includes('<span class="invisible">https://www.</span>'));
    assert.ok(long.includes('<span class="ellipsis">example.com/012345678901234567</span>'));
    assert.ok(long.includes('<span class="invisible">8901234567890123456789</span>'));
    assert.ok(renderLink("https://x.example", true).includes('rel="nofollow noopener me"'));
  });

  it("keeps brackets and punctuation that belong to the sentence out of links", () => {
    const urls = (t: string) => extractEntities(t).flatMap((e) => (e.kind === "url" ? [e.url] : []));
    assert.deepEqual(urls("(see https://example.com/a)"), ["https://example.com/a"]);
    assert.deepEqual(urls("https://en.wikipedia.org/wiki/Gannet_(bird), nice"), [
      "https://en.wikipedia.org/wiki/Gannet_(bird)",
    ]);
    assert.deepEqual(urls("really? https://example.com/?q=1&b=2!"), ["https://example.com/?q=1&b=2"]);
    assert.deepEqual(urls("no link: example.com or javascript:alert(1) or http://"), []);
    assert.deepEqual(urls("a:https://glued.example"), ["https://glued.example"]);
  });

  it("escapes what is inside links", () => {
    const html = plainTextToHtml('https://example.com/"><script>');
    assert.ok(!html.includes("<script>"));
    assert.ok(html.includes('href="https://example.com/"'), html);
  });

  it("links hashtags and resolvable mentions only when told how", () => {
    const text = "#Birds and @bob and @carol@remote.example and @ghost and mail@example.com";
    assert.equal(plainTextToHtml(text, { multiline: false }), escapeHtml(text));
    const html = plainTextToHtml(text, {
      multiline: false,
      tagUrl: (t) => `https://h.example/tags/${t}`,
      mention: (u, d) =>
        u === "ghost" ? undefined : { url: `https://x/@${u}`, username: u, acct: d ? `${u}@${d}` : u },
    });
    assert.ok(
      html.startsWith(
        '<a href="https://h.example/tags/Birds" class="mention hashtag" rel="tag">#<span>Birds</span></a>',
      ),
    );
    assert.ok(html.includes('<a href="https://x/@bob" class="u-url mention">@<span>bob</span></a>'));
    assert.ok(html.includes("@<span>carol</span>"));
    assert.ok(html.includes(" @ghost "));
    assert.ok(html.endsWith("mail@example.com"), "an e-mail address is not a mention");
    const withDomains = plainTextToHtml("@carol@remote.example", {
      multiline: false,
      withDomains: true,
      mention: (u, d) => ({ url: "https://x", username: u, acct: `${u}@${d}` }),
    });
    assert.ok(withDomains.includes("@<span>carol@remote.example</span>"));
  });
});
