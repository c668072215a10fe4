import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalizeLanguage } from "../../src/services/translation/backend.ts";
import { contentSource, plainSource, translatedContent, translatedPlain } from "../../src/services/translation/html.ts";
import { sourceOf, targetOf } from "../../src/services/translation/languages.ts";

describe("translation markup", () => {
  const codes = new Set(["blobcat"]);

  it("marks emojis in text only, and mentions and hashtags, translate=no", () => {
    const html =
      '<p><a href="https://x.example/:blobcat:" class="mention hashtag" rel="tag">#<span>cats</span></a> :blobcat: :other:</p>';
    assert.equal(
      contentSource(html, codes),
      '<p><a href="https://x.example/:blobcat:" class="mention hashtag" rel="tag" translate="no">#<span>cats</span></a> ' +
        '<span translate="no">:blobcat:</span> :other:</p>',
    );
    assert.equal(
      plainSource(`Tom & "Jerry" <3 :blobcat:`, codes),
      'Tom &amp; &quot;Jerry&quot; &lt;3 <span translate="no">:blobcat:</span>',
    );
  });

  it("takes the marks off what comes back and sanitises it as remote HTML", () => {
    assert.equal(
      translatedContent(
        '<p>Hi <span translate="no">:blobcat:</span><script>alert(1)</script><img src=x onerror=alert(1)></p>',
      ),
      "<p>Hi :blobcat:</p>",
    );
    assert.equal(
      translatedContent('<p><a href="javascript:alert(1)" onclick="x()">link</a> <span class="h-card">@a</span></p>'),
      '<p><span>link</span> <span class="h-card">@a</span></p>',
    );
    assert.equal(
      translatedPlain("Tom &amp; <b>Jerry</b> <span translate='no'>:blobcat:</span>"),
      "Tom & Jerry :blobcat:",
    );
  });
});

describe("translation languages", () => {
  const map = { und: ["de", "en-GB", "pt-BR"], en: ["de", "pt-BR"], pt: ["en-GB"] };

  it("normalises tags as Mastodon does DeepL's", () => {
    assert.equal(normalizeLanguage("EN-GB"), "en-GB");
    assert.equal(normalizeLanguage("pt_br"), "pt-BR");
    assert.equal(normalizeLanguage("DE"), "de");
  });

  it("finds a post's source, falling back to its base language, und for none", () => {
    assert.equal(sourceOf(map, "en"), "en");
    assert.equal(sourceOf(map, "pt-BR"), "pt");
    assert.equal(sourceOf(map, null), "und");
    assert.equal(sourceOf(map, "ja"), undefined);
  });

  it("keeps a regional target the backend offers, else falls back to its language", () => {
    assert.equal(targetOf(map.en, "pt_BR"), "pt-BR");
    assert.equal(targetOf(map.en, "de-AT"), "de");
    assert.equal(targetOf(map.en, "en"), undefined);
  });
});
