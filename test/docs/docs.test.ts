import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, it } from "node:test";

/**
 * The documentation's shape: a README a newcomer reads in minutes, starting with the two commands,
 * and no relative link in it or in docs/ that leads nowhere.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const README = join(ROOT, "README.md");
const DOCS = join(ROOT, "docs");

const README_MAX_LINES = 250;
/** The two commands must be within this many lines of the top. */
const COMMANDS_WITHIN = 20;

const markdownFiles = (): string[] => [
  README,
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join(DOCS, name)),
];

/** Markdown without fenced code blocks and inline code, whose brackets are not links. */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The targets of inline links (`[text](target "title")`) and reference definitions (`[x]: target`). */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets: string[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1] as string);
  for (const m of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) targets.push(m[1] as string);
  return targets;
}

/** GitHub's anchors for a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = (m[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** A target that names a file of this repository (not a URL, not an anchor on the same page). */
function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#") && !target.startsWith("//");
}

describe("README.md", () => {
  const readme = readFileSync(README, "utf8");
  const lines = readme.replace(/\n$/, "").split("\n");

  it(`is at most ${README_MAX_LINES} lines`, () => {
    assert.ok(lines.length <= README_MAX_LINES, `README.md has ${lines.length} lines; move detail into docs/`);
  });

  it(`shows the two commands within its first ${COMMANDS_WITHIN} lines`, () => {
    const top = lines.slice(0, COMMANDS_WITHIN).join("\n");
    assert.match(top, /npm install && npm start/, "`npm install && npm start` is not at the top of README.md");
    assert.match(top, /^\s*npm test\b/m, "`npm test` is not at the top of README.md");
  });

  it("links to the documentation index", () => {
    assert.ok(linkTargets(readme).includes("docs/README.md"));
  });
});

describe("links in README.md and docs/", () => {
  it("finds the links it checks", () => {
    // A guard on the parser: were it to find nothing, the next test would pass vacuously.
    assert.deepEqual(linkTargets('see [a](b.md#c), `[x](not-a-link)`, [d](e.md "t")\n\n[g]: h.md\n'), [
      "b.md#c",
      "e.md",
      "h.md",
    ]);
    assert.ok(linkTargets(readFileSync(README, "utf8")).length > 5);
  });

  it("every relative link points to a file that exists", () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const target of linkTargets(readFileSync(file, "utf8")).filter(isRelative)) {
        const path = join(dirname(file), decodeURIComponent(target.replace(/[#?].*$/, "")));
        if (!existsSync(path)) broken.push(`${relative(ROOT, file)}: ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("every anchor of a link to a Markdown file names one of its headings", () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const target of linkTargets(readFileSync(file, "utf8")).filter((t) => isRelative(t) || t.startsWith("#"))) {
        const hash = target.indexOf("#");
        if (hash < 0) continue;
        const path = hash === 0 ? file : join(dirname(file), target.slice(0, hash));
        if (!path.endsWith(".md") || !existsSync(path)) continue;
        const anchor = decodeURIComponent(target.slice(hash + 1));
        if (!anchorsOf(readFileSync(path, "utf8")).has(anchor)) broken.push(`${relative(ROOT, file)}: ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("every file in docs/ is listed in the index, docs/README.md", () => {
    const index = new Set(linkTargets(readFileSync(join(DOCS, "README.md"), "utf8")).map((t) => t.replace(/#.*$/, "")));
    const missing = markdownFiles()
      .filter((f) => dirname(f) === DOCS && !f.endsWith("README.md"))
      .map((f) => relative(DOCS, f))
      .filter((name) => !index.has(name));
    assert.deepEqual(missing, []);
  });
});
