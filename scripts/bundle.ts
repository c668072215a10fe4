/**
 * The bundled build (scripts/build.ts uses it when esbuild loads): `src/main.ts` and the ES-module
 * packages it imports, in a few files instead of about 940 modules before the first answer (the
 * ESM loader's resolving, reading and linking of each was most of start-up's time).
 *
 * - Code splitting keeps every `import()` of the sources lazy: the background roles, the lazily
 *   loaded web and API areas, Fedify's inbox and outbox paths, each migration, are chunks
 *   (`chunks/`) loaded on first use as before.
 * - Packages written as CommonJS (ioredis, pg, sharp, the argon2 binding, nodemailer, ws,
 *   sanitize-html, ...) stay outside and are loaded from node_modules at run time, as they were:
 *   bundled, they would lose `__dirname` and their own `require`s of files and bindings. None of
 *   them is loaded before the first answer.
 * - `src/db/migrations/index.ts` lists its folder at run time; in the bundle, the list is made at
 *   build time (the same names, each migration a chunk imported when it runs).
 * - Every module of the sources imports start.ts, so all that start-up loads is one chunk (see
 *   the plugin below).
 * - Names of functions and classes are kept (`keepNames`): Fedify names activities after their
 *   class (`#Create/...`), which renaming on collision would change.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

type Esbuild = typeof import("esbuild");

const MIGRATIONS = /[\\/]src[\\/]db[\\/]migrations[\\/]index\.ts$/;

/**
 * esbuild, or undefined when it is not installed. Its binary is not run here: a start whose
 * bundle is up to date does not need it, and a binary that fails makes the build fall back.
 */
export async function loadEsbuild(): Promise<Esbuild | undefined> {
  try {
    return await import("esbuild");
  } catch (error) {
    process.stderr.write(
      `gannet: esbuild unavailable (${(error as Error).message.split("\n")[0]}): one file per module\n`,
    );
    return undefined;
  }
}

/** The migrations module of the bundle: the folder's names, read now. */
function migrationsModule(file: string): string {
  const names = readdirSync(dirname(file))
    .filter((f) => /^\d{4}-[a-z0-9-]+\.ts$/.test(f))
    .sort();
  const entries = names.map(
    (f) =>
      `  ${JSON.stringify(f.replace(/\.ts$/, ""))}: { up: async (db) => (await import(${JSON.stringify(`./${f}`)})).up(db) },`,
  );
  return `export async function loadMigrations() {\n  return {\n${entries.join("\n")}\n  };\n}\n`;
}

/** Whether a resolved file of a package is CommonJS (by its extension, else its package.json's `type`). */
function isCommonJs(file: string, types: Map<string, string>): boolean {
  if (file.endsWith(".mjs")) return false;
  if (file.endsWith(".cjs")) return true;
  if (!/\.[cm]?js$/.test(file)) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    let type = types.get(dir);
    if (type === undefined) {
      try {
        type = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).type ?? "commonjs";
      } catch {
        type = "";
      }
      types.set(dir, type ?? "");
    }
    if (type) return type !== "module";
  }
  return true;
}

/** The package a file in node_modules belongs to (`@scope/name` or `name`). */
function packageOf(file: string): string | undefined {
  return /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](?!.*node_modules)/.exec(file)?.[1].replace("\\", "/");
}

/**
 * Packages kept outside from the start: those loading native bindings by path (sharp, argon2) or
 * whose ES-module entry wraps CommonJS files (pg).
 */
const EXTERNAL = ["sharp", "@node-rs/argon2", "pg"];

/** Bundles `src/main.ts` into `dir` (main.js, chunks/, package.json). */
export async function bundle(esbuild: Esbuild, root: string, dir: string): Promise<void> {
  const external = new Set(EXTERNAL);
  const cjs = await bundleOnce(esbuild, root, dir, external);
  if (cjs.size === 0) return;
  // A package's ES-module entry reached CommonJS files of its own: keep the package outside.
  process.stderr.write(`gannet: kept outside the bundle as CommonJS: ${[...cjs].join(", ")}\n`);
  for (const name of cjs) external.add(name);
  rmSync(dir, { recursive: true, force: true });
  const left = await bundleOnce(esbuild, root, dir, external);
  if (left.size > 0) throw new Error(`CommonJS files still bundled from ${[...left].join(", ")}`);
}

/** One bundling; returns the packages whose CommonJS files it bundled. */
async function bundleOnce(esbuild: Esbuild, root: string, dir: string, external: Set<string>): Promise<Set<string>> {
  const types = new Map<string, string>();
  const start = join(root, "src", "start.ts");
  const result = await esbuild.build({
    metafile: true,
    // The inbox threads' module is an entry of its own: a Worker starts it by its file
    // (src/inbox-threads/pool.ts finds it through __GANNET_BUNDLE__).
    entryPoints: {
      main: join(root, "src", "main.ts"),
      "inbox-thread": join(root, "src", "inbox-threads", "thread-main.ts"),
    },
    define: { __GANNET_BUNDLE__: "true" },
    outdir: dir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node24",
    chunkNames: "chunks/[name]-[hash]",
    keepNames: true,
    sourcemap: "linked",
    legalComments: "none",
    logLevel: "error",
    absWorkingDir: root,
    plugins: [
      {
        name: "gannet",
        setup(build) {
          build.onLoad({ filter: MIGRATIONS }, (args) => ({
            contents: migrationsModule(args.path),
            loader: "js",
            resolveDir: dirname(args.path),
          }));
          // Every module of the sources imports start.ts (a no-op: it is evaluating already when
          // any of them loads). Code splitting groups modules by the set of entry points (the
          // `import()`s) that reach them; with this, all that start-up loads is reached by every
          // entry point and lands in one chunk instead of a hundred.
          build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
            if (args.path === start || args.path === join(root, "src", "main.ts")) return undefined;
            const code = readFileSync(args.path, "utf8");
            return { contents: `${code}\nimport ${JSON.stringify(start)};\n`, loader: "ts" };
          });
          // Bare package names: CommonJS packages stay outside the bundle.
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === "gannet" || args.path.startsWith("node:")) return undefined;
            const name = args.path.startsWith("@") ? args.path.split("/", 2).join("/") : args.path.split("/")[0];
            const resolved = await build.resolve(args.path, {
              kind: args.kind,
              importer: args.importer,
              resolveDir: args.resolveDir,
              pluginData: "gannet",
            });
            if (resolved.errors.length > 0 || resolved.external) return { path: args.path, external: true };
            if (!external.has(name) && !isCommonJs(resolved.path, types)) return resolved;
            // Kept outside, the name is resolved from the build's folder at run time: it must
            // be the same package as from its importer (not a version nested under another).
            const fromRoot = await build.resolve(args.path, {
              kind: args.kind,
              resolveDir: root,
              pluginData: "gannet",
            });
            if (fromRoot.path !== resolved.path) {
              return { errors: [{ text: `${args.path} from ${args.importer} is not the project's own ${name}` }] };
            }
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  const bundled = new Set<string>();
  for (const [path, input] of Object.entries(result.metafile.inputs)) {
    const name = packageOf(path);
    if (input.format === "cjs" && name) bundled.add(name);
  }
  return bundled;
}
