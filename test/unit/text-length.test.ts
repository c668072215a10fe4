import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isLanguageCode, isLocale } from "../../src/lib/text/languages.ts";
import { codePointLength, countableLength, graphemeLength } from "../../src/lib/text/length.ts";

describe("text lengths and languages", () => {
  it("counts URLs as 23 characters and remote mentions by their username", () => {
    assert.equal(countableLength("hello"), 5);
    assert.equal(countableLength(`a https://example.com/${"x".repeat(100)}`), 2 + 23);
    assert.equal(countableLength("@bob@very.long.remote.example hi"), "@bob hi".length);
  });

  it("counts emoji as people see them", () => {
    assert.equal(graphemeLength("👩‍👩‍👧"), 1);
    assert.equal(codePointLength("🐦"), 1);
    assert.equal("🐦".length, 2);
  });

  it("knows language codes and locales", () => {
    assert.ok(isLanguageCode("fr"));
    assert.ok(!isLanguageCode("english"));
    assert.ok(!isLanguageCode("xx"));
    for (const l of ["en", "pt-BR", "zh-TW", "zh_TW", "zh-Hant", "es-419", "ast"]) assert.ok(isLocale(l), l);
    for (const l of ["", "klingon!", "e", "en-", "xx"]) assert.ok(!isLocale(l), l);
  });
});
