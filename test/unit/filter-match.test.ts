import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ActiveFilter } from "../../src/db/repositories/filters.ts";
import type { Status } from "../../src/db/repositories/statuses.ts";
import { compileFilter, keywordPattern, matchFilters } from "../../src/services/filters/match.ts";

const filterOf = (keywords: { keyword: string; wholeWord: boolean }[]): ActiveFilter => ({
  filter: {
    id: "1",
    accountId: "2",
    title: "t",
    context: ["home"],
    action: "warn",
    expiresAt: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  },
  keywords: keywords.map((k, i) => ({ id: String(i + 10), filterId: "1", ...k })),
  statusIds: [],
});
const status = { id: "5", reblogOfId: null } as Status;

/** What the regex alone says, the reference the shortcut must agree with. */
const byRegex = (keywords: { keyword: string; wholeWord: boolean }[], text: string) =>
  new RegExp(keywords.map((k) => keywordPattern(k)).join("|"), "iu").exec(text)?.[0] ?? null;

describe("filter keyword matching", () => {
  it("skips the regex only when no match is possible: the same answers as the regex alone", () => {
    const cases: [{ keyword: string; wholeWord: boolean }[], string][] = [
      [[{ keyword: "sun", wholeWord: true }], "the ſun is up"], // long s folds to s
      [[{ keyword: "kilo", wholeWord: false }], "a \u212Ailogram"], // Kelvin sign folds to k
      [[{ keyword: "Concert", wholeWord: true }], "CONCERT tonight"],
      [[{ keyword: "concert", wholeWord: true }], "concerts tonight"],
      [[{ keyword: "cat", wholeWord: false }], "concatenate"],
      [[{ keyword: "σ", wholeWord: false }], "ΟΔΟΣ"], // non-ASCII keyword: the regex always runs
      [[{ keyword: "über", wholeWord: true }], "ÜBER alles"],
      [
        [
          { keyword: "dog", wholeWord: false },
          { keyword: "bird", wholeWord: true },
        ],
        "A BIRD sang",
      ],
      [[{ keyword: "dog", wholeWord: false }], "nothing here"],
    ];
    for (const [keywords, text] of cases) {
      const { results } = matchFilters([compileFilter(filterOf(keywords))], status, text);
      const got = (results[0]?.keyword_matches as string[] | undefined)?.[0] ?? null;
      assert.equal(got, byRegex(keywords, text), `${JSON.stringify(keywords)} in ${JSON.stringify(text)}`);
    }
  });

  it("compiles ASCII keywords to lower-case needles and others to none", () => {
    assert.deepEqual(compileFilter(filterOf([{ keyword: "Spoiler", wholeWord: true }])).needles, ["spoiler"]);
    assert.equal(
      compileFilter(
        filterOf([
          { keyword: "Spoiler", wholeWord: true },
          { keyword: "ネタバレ", wholeWord: false },
        ]),
      ).needles,
      null,
    );
  });
});
