import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import {
  MAX_QUERY_CHARS,
  parseFullTextQuery,
  parseSearchInput,
  prefixFts5,
  prefixTsQuery,
  toFts5,
  toTsQuery,
  wordsOf,
} from "../../src/services/search/query.ts";

const NASTY = [
  '"',
  '""',
  '"a',
  "*",
  "-",
  "--",
  "- a",
  "-a",
  "OR",
  "OR OR",
  "a OR OR b",
  "AND",
  "NOT",
  "NEAR(a b, 2)",
  "col:a",
  "{a b}:c",
  "^a",
  "a*",
  "(a",
  "a)",
  "'",
  "''",
  "\\",
  "!",
  "&",
  "|",
  ":*",
  "<->",
  "a & b | !c",
  "\u0000",
  "\u0301",
  "e\u0301",
  "½",
  "日本語",
  "🦊🦊",
  "\u202e",
  "x".repeat(5000),
];

/** A random string from characters that mean something to FTS5 or tsquery, plus letters. */
function randomInput(seed: number): string {
  const alphabet = [
    '"',
    "*",
    "-",
    "(",
    ")",
    ":",
    "^",
    "'",
    "\\",
    "!",
    "&",
    "|",
    "<",
    ">",
    " ",
    "a",
    "b",
    "é",
    "日",
    "0",
  ];
  let x = seed;
  let out = "";
  const n = (seed % 17) + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length];
  }
  return seed % 5 === 0 ? `${out} OR ${out}` : out;
}

describe("search query: parsing and writing FTS5 and tsquery", () => {
  const sqlite = new DatabaseSync(":memory:");
  let client: pg.Client | undefined;

  before(async () => {
    sqlite.exec("CREATE VIRTUAL TABLE t USING fts5(a, b, tokenize='unicode61 remove_diacritics 2')");
    sqlite.exec("INSERT INTO t VALUES ('the quick brown fox', 'x'), ('lazy dog', 'café')");
    if (process.env.DATABASE_URL) {
      client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
    }
  });
  after(async () => {
    sqlite.close();
    await client?.end();
  });

  const runBoth = async (input: string) => {
    const parsed = parseFullTextQuery(input);
    const fts = toFts5(parsed);
    if (fts !== undefined) sqlite.prepare("SELECT rowid FROM t WHERE t MATCH ?").all(fts);
    const words = wordsOf(input);
    const prefix = prefixFts5(words);
    if (prefix !== undefined) sqlite.prepare("SELECT rowid FROM t WHERE t MATCH ?").all(prefix);
    if (client) {
      const ts = toTsQuery(parsed);
      if (ts !== undefined) await client.query("SELECT to_tsquery('simple', $1)", [ts]);
      const tsPrefix = prefixTsQuery(words);
      if (tsPrefix !== undefined) await client.query("SELECT to_tsquery('simple', $1)", [tsPrefix]);
    }
  };

  it("no input is a syntax error in either database", async () => {
    for (const input of NASTY) await runBoth(input);
    for (let seed = 1; seed < 600; seed++) await runBoth(randomInput(seed));
  });

  it("words, phrases, exclusions and OR", () => {
    assert.deepEqual(parseFullTextQuery("Quick  FOX"), [
      [
        { words: ["quick"], negated: false },
        { words: ["fox"], negated: false },
      ],
    ]);
    assert.deepEqual(parseFullTextQuery('"brown fox" -lazy'), [
      [
        { words: ["brown", "fox"], negated: false },
        { words: ["lazy"], negated: true },
      ],
    ]);
    assert.deepEqual(parseFullTextQuery("a OR b"), [
      [{ words: ["a"], negated: false }],
      [{ words: ["b"], negated: false }],
    ]);
    assert.deepEqual(parseFullTextQuery("-only -negations"), []);
    assert.equal(toFts5(parseFullTextQuery("quick -lazy OR dog")), '(("quick") NOT "lazy") OR ("dog")');
    assert.equal(toTsQuery(parseFullTextQuery('"brown fox" -lazy')), "(('brown' <-> 'fox') & !'lazy')");
    const match = (q: string) =>
      sqlite
        .prepare("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid")
        .all(toFts5(parseFullTextQuery(q)) ?? "")
        .map((r) => Number(r.rowid));
    assert.deepEqual(match("FOX"), [1]);
    assert.deepEqual(match('"brown fox"'), [1]);
    assert.deepEqual(match('"fox brown"'), []);
    assert.deepEqual(match("fox OR dog"), [1, 2]);
    assert.deepEqual(match("cafe"), [2]);
  });

  it("takes Mastodon's operators out of the text", () => {
    const parsed = parseSearchInput("kiwi from:me -is:reply col:umn HAS:Media");
    assert.deepEqual(parsed.text, [
      [
        { words: ["kiwi"], negated: false },
        { words: ["col", "umn"], negated: false },
      ],
    ]);
    assert.deepEqual(parsed.operators, [
      { name: "from", value: "me", negated: false },
      { name: "is", value: "reply", negated: true },
      { name: "has", value: "Media", negated: false },
    ]);
    assert.deepEqual(parseSearchInput("from:").operators, []);
    assert.equal(parseSearchInput(Array(20).fill("is:reply").join(" ")).operators.length, 8);
  });

  it("is bounded: characters read, words kept, word length", () => {
    const many = parseFullTextQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(" "));
    assert.equal(many.flat().length, 16);
    const long = parseFullTextQuery("y".repeat(10_000));
    assert.equal(long[0][0].words[0].length, 64);
    assert.equal(MAX_QUERY_CHARS, 500);
    assert.deepEqual(parseFullTextQuery(`${" ".repeat(MAX_QUERY_CHARS)}hidden`), []);
  });
});
