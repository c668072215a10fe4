import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractEntities } from "../../src/lib/text/entities.ts";
import { foldLatin, hashtagDisplayName, normalizeHashtag } from "../../src/lib/text/hashtag-name.ts";

describe("normalizeHashtag (Mastodon's HashtagNormalizer)", () => {
  it("folds width, case, composed and decomposed accents to one name", () => {
    for (const s of ["café", "Café", "CAFÉ", "ｃａｆｅ", "ＣＡＦＥ", "cafe\u0301", "cafe"]) {
      assert.equal(normalizeHashtag(s), "cafe", JSON.stringify(s));
    }
  });

  it("folds the Latin letters Mastodon folds, and only those", () => {
    assert.equal(foldLatin("ÀÅàåÇçÐðĐđÈëĦħıĸŁłŊŋØøŦŧÿŽž"), "AAaaCcDdDdEeHhikLlNnOoTtyZz");
    // Not folded by Mastodon either: ligatures, sharp s, thorn, Latin Extended-B, other scripts.
    assert.equal(foldLatin("ÆæßÞþŒœǎơ"), "ÆæßÞþŒœǎơ");
    assert.equal(normalizeHashtag("Straße"), "straße");
    assert.equal(normalizeHashtag("Ærø"), "æro");
    assert.equal(normalizeHashtag("Ελληνικά"), "ελληνικά");
    assert.equal(normalizeHashtag("日本語"), "日本語");
    assert.equal(normalizeHashtag("ﾃｽﾄ"), "テスト", "half-width katakana widened");
  });

  it("keeps letters, marks, decimal digits and the separators; drops the rest", () => {
    assert.equal(normalizeHashtag("foo_bar·baz・qux\u200cend"), "foo_bar·baz・qux\u200cend");
    assert.equal(normalizeHashtag("no-dash.dot!"), "nodashdot");
    assert.equal(normalizeHashtag("ภาษาไทย"), "ภาษาไทย", "Thai marks stay");
    assert.equal(normalizeHashtag("①②"), "12", "NFKC makes circled digits plain");
    assert.equal(normalizeHashtag("½"), "12");
    assert.equal(normalizeHashtag("🦊"), "");
    assert.equal(normalizeHashtag(""), "");
  });

  it("display names keep what was written, less what a hashtag cannot hold", () => {
    assert.equal(hashtagDisplayName("Café"), "Café");
    assert.equal(hashtagDisplayName("ｃａｆｅ"), "ｃａｆｅ");
    assert.equal(hashtagDisplayName("cafe\u0301!"), "cafe\u0301");
  });

  it("hashtags in text keep their combining marks and Mastodon's separators", () => {
    const tags = (text: string) => extractEntities(text).flatMap((e) => (e.kind === "hashtag" ? [e.tag] : []));
    assert.deepEqual(tags("#cafe\u0301 time"), ["cafe\u0301"]);
    assert.deepEqual(tags("#ｃａｆｅ・ｂａｒ and #a·b"), ["ｃａｆｅ・ｂａｒ", "a·b"]);
    assert.deepEqual(tags("#ภาษาไทย"), ["ภาษาไทย"]);
  });
});
