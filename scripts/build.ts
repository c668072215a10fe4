/**
 * Writes the runnable build: every TypeScript file of `src/` with its types stripped (the same
 * transform Node applies when it runs .ts files) and its relative `.ts` imports pointed at `.js`.
 * `npm start` runs the result, so the server process does not load Node's TypeScript stripper
 * (about 18 MiB of memory and a tenth of start-up time). Tests and development run the sources.
 *
 * Several processes may start from one checkout at once (a `web` and a `worker`, two units of a
 * service manager), so a build never changes files another process may be loading:
 * - each build lives in `dist/<fingerprint>/`, named after the sources it was made from, and is
 *   written under a temporary name, then renamed into place whole;
 * - `dist/current` is a symbolic link to the build to run, replaced atomically (a new link renamed
 *   over the old one); a running server resolved it when it started and keeps loading from its
 *   own build directory;
 * - when `dist/current` already points at a build of the same sources, nothing is written.
 * The three newest builds are kept, so a server started from an older one still finds its
 * lazily loaded modules after the sources changed.
 *
 * With esbuild installed (an optional dependency) the build is a bundle: `main.js` and its chunks,
 * see scripts/bundle.ts. Without it, or when bundling fails, it falls back to one file per
 * module, as Node would run the sources.
 *
 * `--out DIR` writes somewhere else than `dist/` (the tests use it); `--files` makes the build of
 * one file per module even when esbuild is there.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { bundle, loadEsbuild } from "./bundle.ts";

const KEEP = 3;
const root = join(import.meta.dirname, "..");
const src = join(root, "src");
const { values } = parseArgs({ options: { out: { type: "string" }, files: { type: "boolean" } } });
const out = values.out ?? join(root, "dist");
const current = join(out, "current");

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) yield p;
  }
}

/** `from "./x.ts"`, `import("./x.ts")`, `export ... from "../y.ts"` -> `.js`. */
function rewriteImports(code: string): string {
  return code.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']+)\.ts\2/g, "$1$2$3.js$2");
}

/** How the build is made: a bundle (with that esbuild) or one file per module. */
type Builder = { kind: "bundle"; esbuild: NonNullable<Awaited<ReturnType<typeof loadEsbuild>>> } | { kind: "files" };

/**
 * What a build depends on: the sources, these scripts, the Node version that strips types; for a
 * bundle also esbuild's version and the installed packages (the lock file), whose code it holds.
 */
function fingerprint(sources: Map<string, string>, builder: Builder): string {
  const hash = createHash("sha256");
  hash
    .update(process.version)
    .update("\0")
    .update(readFileSync(import.meta.filename))
    .update("\0")
    .update(builder.kind);
  if (builder.kind === "bundle") {
    hash
      .update("\0")
      .update(builder.esbuild.version)
      .update("\0")
      .update(readFileSync(join(import.meta.dirname, "bundle.ts")));
    const lock = join(root, "package-lock.json");
    if (existsSync(lock)) hash.update("\0").update(readFileSync(lock));
  }
  for (const [path, code] of sources) hash.update("\0").update(path).update("\0").update(code);
  return hash.digest("hex").slice(0, 16);
}

function isBuild(name: string): boolean {
  return /^[0-9a-f]{16}$/.test(name);
}

/** `dist/` from before builds were kept side by side held the files themselves: move them away. */
function clearOldLayout(): void {
  if (!existsSync(join(out, "main.js"))) return;
  const aside = `${out}.old-${process.pid}`;
  try {
    renameSync(out, aside);
    rmSync(aside, { recursive: true, force: true });
  } catch {
    // Another process moved it first.
  }
}

function writeFiles(sources: Map<string, string>, dir: string): void {
  for (const [path, code] of sources) {
    const target = join(dir, path).replace(/\.ts$/, ".js");
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, rewriteImports(stripTypeScriptTypes(code, { mode: "strip" })));
  }
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
}

function pointCurrentAt(name: string): void {
  const link = join(out, `.current-${process.pid}-${Date.now()}`);
  symlinkSync(name, link);
  renameSync(link, current);
}

function prune(keep: string): void {
  const builds = readdirSync(out)
    .filter((name) => isBuild(name) && name !== keep)
    .map((name) => ({ name, mtime: statSync(join(out, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of builds.slice(KEEP - 1)) rmSync(join(out, name), { recursive: true, force: true });
  for (const name of readdirSync(out)) {
    // Temporaries of builds that died: anything of ours older than an hour.
    if (name.startsWith(".") && Date.now() - lstatSync(join(out, name)).mtimeMs > 3_600_000) {
      rmSync(join(out, name), { recursive: true, force: true });
    }
  }
}

async function write(sources: Map<string, string>, builder: Builder, dir: string): Promise<void> {
  if (builder.kind === "bundle") {
    await bundle(builder.esbuild, root, dir);
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  } else {
    writeFiles(sources, dir);
  }
}

/** Writes the build named `name` into place, unless another process did first. */
async function build(sources: Map<string, string>, builder: Builder, name: string): Promise<void> {
  const target = join(out, name);
  const temporary = join(out, `.build-${name}-${process.pid}-${Date.now()}`);
  try {
    await write(sources, builder, temporary);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(temporary, target);
  } catch (error) {
    // Another process renamed the same build into place first: its files are ours, byte for byte.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(join(target, "package.json"))) throw error;
  }
  const what = builder.kind === "bundle" ? "bundled" : "built";
  process.stderr.write(`gannet: ${what} ${sources.size} files into ${relative(root, target) || target}\n`);
}

const sources = new Map<string, string>();
for (const file of files(src)) sources.set(relative(src, file), readFileSync(file, "utf8"));
const esbuild = values.files ? undefined : await loadEsbuild();
let builder: Builder = esbuild ? { kind: "bundle", esbuild } : { kind: "files" };
let name = fingerprint(sources, builder);

if (existsSync(current) && readlinkSync(current) === name && existsSync(join(out, name, "package.json"))) {
  process.stderr.write(`gannet: build ${name} is up to date (${join(relative(root, out) || ".", "current")})\n`);
  process.exit(0);
}

clearOldLayout();
mkdirSync(out, { recursive: true });
if (!existsSync(join(out, name, "package.json"))) {
  try {
    await build(sources, builder, name);
  } catch (error) {
    if (builder.kind !== "bundle") throw error;
    process.stderr.write(
      `gannet: bundling failed, building one file per module instead: ${(error as Error).message}\n`,
    );
    builder = { kind: "files" };
    name = fingerprint(sources, builder);
    if (!existsSync(join(out, name, "package.json"))) await build(sources, builder, name);
  }
}
const now = new Date();
utimesSync(join(out, name), now, now);
pointCurrentAt(name);
prune(name);
