import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { CONFIGURATION_DOC, configurationMarkdown } from "../../src/config/docs.ts";
import { SETTINGS, type Setting } from "../../src/config/settings.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Variables of the operating system, not Gannet settings. */
const SYSTEM_VARIABLES = new Set(["PATH"]);

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (/\.(ts|js)$/.test(name) && !name.endsWith(".d.ts")) yield p;
  }
}

/**
 * Every environment variable the code reads by name: `process.env.X`, `process.env["X"]`, and
 * `env.X` / `env["X"]` / `read(env, "X")` on an environment passed around (not Hono's `c.env`,
 * whose keys are lower case). Also every use of `process.env` that reads no name at all.
 */
function envReads(): { names: Map<string, string>; unnamed: string[] } {
  const names = new Map<string, string>();
  const unnamed: string[] = [];
  for (const dir of ["src", "scripts", "bin"]) {
    for (const file of sources(join(ROOT, dir))) {
      const rel = relative(ROOT, file);
      const text = readFileSync(file, "utf8");
      const patterns = [
        /\benv\??\.([A-Z][A-Z0-9_]*)\b/g,
        /\benv\??\.?\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\]/g,
        /\b(?:read|isSet)\(\s*env\s*,\s*["']([A-Z][A-Z0-9_]*)["']/g,
      ];
      for (const re of patterns) {
        for (const m of text.matchAll(re)) if (!names.has(m[1])) names.set(m[1], rel);
      }
      for (const m of text.matchAll(/process\.env\b(?!\??\.[A-Z]|\??\.?\[\s*["'`][A-Z])/g)) {
        const line = text.slice(0, m.index).split("\n").length;
        unnamed.push(`${rel}:${line}`);
      }
    }
  }
  return { names, unnamed };
}

describe("docs/configuration.md", () => {
  it("is what the settings table makes (run `npm run docs:config`)", () => {
    const onDisk = readFileSync(CONFIGURATION_DOC, "utf8");
    assert.ok(onDisk === configurationMarkdown(), "docs/configuration.md is out of date: run npm run docs:config");
  });

  it("lists every setting once, each with a description", () => {
    const doc = configurationMarkdown();
    for (const [name, s] of Object.entries(SETTINGS)) {
      assert.equal(doc.split(`| \`${name}\` |`).length, 2, name);
      assert.ok(s.description.length > 10, name);
    }
  });
});

describe("the settings table", () => {
  it("holds every environment variable the code reads", () => {
    const { names } = envReads();
    // The scan finds what it should (a read outside the config module included).
    assert.equal(names.get("GANNET_STRICT_SHAPES"), "src/db/repositories/query-shapes.ts");
    assert.ok(names.has("PORT"));
    const missing = [...names].filter(([n]) => !(n in SETTINGS) && !SYSTEM_VARIABLES.has(n));
    assert.deepEqual(
      missing.map(([n, file]) => `${n} (${file})`),
      [],
      "add these to SETTINGS in src/config/settings.ts",
    );
  });

  it("names a file for each setting read outside loadConfig, and that file reads it", () => {
    for (const [name, s] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
      if (s.readBy === undefined) continue;
      assert.match(readFileSync(join(ROOT, s.readBy), "utf8"), new RegExp(`\\b${name}\\b`), name);
    }
  });

  it("is the only way the process environment is read, apart from readEnvironment", () => {
    const { unnamed } = envReads();
    const allowed = unnamed.filter((at) => !at.startsWith("src/config/index.ts:"));
    assert.deepEqual(allowed, [], "read settings through src/config (or name the variable so the scan sees it)");
  });
});
