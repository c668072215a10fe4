import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isValidEmail } from "../../src/lib/email.ts";

describe("e-mail addresses (Mastodon's rule: Devise's x@y and the mail gem's addr-spec)", () => {
  it("takes plain addresses, dotless and bracketed domains, and the local part's stray dots", () => {
    for (const e of [
      "a@b.c",
      "admin@localhost",
      "first.last+tag@mail.example",
      "o'hara@x.example",
      "a..b@x",
      ".a.@x",
      "user@[127.0.0.1]",
      "under_score@host_name",
    ]) {
      assert.equal(isValidEmail(e), true, e);
    }
  });

  it("refuses what Mastodon refuses, and anything that could carry a second address", () => {
    for (const e of [
      "",
      "plain",
      "@host",
      "user@",
      "a@b@c",
      "a b@c",
      "a@b c",
      " a@b",
      "a@b\n",
      "a%b@c",
      "a,b@c",
      '"a"@c',
      "<a@b>",
      "Name <a@b>",
      "a(comment)@b",
      "a@b..c",
      "a@.b",
      "a@b.",
      "a@[x@y]",
      "é@x",
      `${"a".repeat(250)}@x.example`,
    ]) {
      assert.equal(isValidEmail(e), false, e);
    }
  });
});
