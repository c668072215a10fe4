import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { htmlToText } from "../../src/lib/text/html-text.ts";
import { openToken, sealToken } from "../../src/services/push/token-box.ts";

describe("Web Push payload text", () => {
  it("turns status HTML into plain text as Mastodon's strip_tags and entity decoding do", () => {
    assert.equal(htmlToText("<p>one</p><p>two<br>three</p>"), "one\n\ntwo\nthree");
    assert.equal(
      htmlToText('<p>hi <a href="x">@<span>bob</span></a> &amp; &lt;3 &#39;q&#x27;</p>'),
      "hi @bob & <3 'q'",
    );
    assert.equal(htmlToText("&unknown; &#0; &#x110000;"), "&unknown; &#0; &#x110000;");
  });
});

describe("sealed access tokens", () => {
  it("open with the same secret key only", () => {
    const box = sealToken("s".repeat(40), "the-token");
    assert.notEqual(box, sealToken("s".repeat(40), "the-token"), "a fresh IV each time");
    assert.equal(openToken("s".repeat(40), box), "the-token");
    assert.equal(openToken("t".repeat(40), box), undefined);
    assert.equal(openToken("s".repeat(40), "garbage"), undefined);
  });
});
