import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { acceptedLanguages, readerLanguages } from "../../src/services/trends/languages.ts";
import {
  type AccountUse,
  decay,
  rankItems,
  STATUS_OPTIONS,
  statusScore,
  surprise,
  TAG_OPTIONS,
  usageScore,
} from "../../src/services/trends/maths.ts";

const HOUR = 3_600_000;
/** `n` distinct local accounts, each last using the item `ageMs` ago. */
const uses = (n: number, ageMs: number, servers = 1): AccountUse[] =>
  Array.from({ length: n }, (_, i) => ({ server: `s${i % servers}`, ageMs }));

describe("trend scoring maths", () => {
  it("halves a weight every half-life", () => {
    assert.equal(decay(0, HOUR), 1);
    assert.equal(decay(HOUR, HOUR), 0.5);
    assert.equal(decay(3 * HOUR, HOUR), 0.125);
  });

  it("scores only a rise above the usual level", () => {
    assert.equal(surprise(3, 3), 0);
    assert.equal(surprise(2, 5), 0);
    assert.equal(surprise(5, 1), 16);
    // A usual level under one account counts as one.
    assert.equal(surprise(3, 0), 4);
  });

  it("puts a burst above a steady hashtag used as much every day", () => {
    const steady = usageScore(uses(6, HOUR), [6, 6, 6, 6, 6, 6], TAG_OPTIONS);
    const burst = usageScore(uses(6, HOUR), [0, 0, 0, 0, 0, 1], TAG_OPTIONS);
    assert.equal(steady, 0);
    assert.ok(burst > 10, `burst scored ${burst}`);
  });

  it("lets a burst fade as its uses age, and ignores one lone account", () => {
    const fresh = usageScore(uses(8, 0), [], TAG_OPTIONS);
    const later = usageScore(uses(8, 6 * HOUR), [], TAG_OPTIONS);
    const old = usageScore(uses(8, 20 * HOUR), [], TAG_OPTIONS);
    assert.ok(fresh > later && later > old, `${fresh} > ${later} > ${old}`);
    assert.equal(usageScore(uses(1, 0), [], TAG_OPTIONS), 0);
  });

  it("counts uses from several servers more than from one", () => {
    assert.ok(usageScore(uses(6, 0, 3), [], TAG_OPTIONS) > usageScore(uses(6, 0, 1), [], TAG_OPTIONS));
  });

  it("decays a post's score with its age and needs a few interactions", () => {
    assert.equal(statusScore(1, 0, STATUS_OPTIONS), 0);
    const now = statusScore(5, 0, STATUS_OPTIONS);
    assert.equal(now, 16);
    assert.equal(statusScore(5, STATUS_OPTIONS.halfLifeMs, STATUS_OPTIONS), 8);
  });

  it("ranks the best first, drops weak scores and keeps a bounded list", () => {
    const items = Array.from({ length: 600 }, (_, i) => ({ id: String(i), score: i / 10 }));
    const ranked = rankItems(items, TAG_OPTIONS);
    assert.equal(ranked.length, TAG_OPTIONS.maxItems);
    assert.deepEqual(
      ranked.slice(0, 2).map((r) => [r.id, r.rank]),
      [
        ["599", 1],
        ["598", 2],
      ],
    );
    assert.ok(ranked.every((r) => r.score >= TAG_OPTIONS.minScore));
  });
});

describe("trend languages", () => {
  it("reads Accept-Language by preference, without refused or malformed tags", () => {
    assert.deepEqual(acceptedLanguages("fr-CH, fr;q=0.9, en;q=0.8, de;q=0, *;q=0.5"), ["fr", "en"]);
    assert.deepEqual(acceptedLanguages("en;q=0.2, ja"), ["ja", "en"]);
    assert.deepEqual(acceptedLanguages(undefined), []);
    assert.deepEqual(acceptedLanguages("<script>"), []);
  });

  it("joins the reader's languages, the request's and the server's default", () => {
    assert.deepEqual(readerLanguages(undefined, "de", "en"), ["de", "en"]);
    const user = { locale: "pt-BR", settings: { language: "es", chosenLanguages: ["ja"] } } as never;
    assert.deepEqual(readerLanguages(user, undefined, "en"), ["en", "es", "ja", "pt"]);
  });
});
