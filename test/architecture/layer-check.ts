import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/**
 * The layering rules of the README's design notes, checked on the source text: routes (src/http)
 * call services, services call repositories (src/db), serializers take plain view types and
 * src/lib stands on nothing of Gannet's. Imports are read with TypeScript's own scanner, so
 * `import type`, re-exports, `import()` types and dynamic imports all count; only relative
 * specifiers point into Gannet (node: and npm packages are fine everywhere).
 */

export interface Violation {
  /** The importing file, relative to the project root, with `/` separators. */
  file: string;
  line: number;
  /** The specifier as written, or the offending expression. */
  target: string;
  rule: string;
}

interface Rule {
  from: string;
  /** A target is forbidden when this says so; `to` is the project-relative path of the import. */
  forbids(to: string): boolean;
  name: string;
}

const under = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);

const RULES: Rule[] = [
  { from: "src/http", forbids: (to) => under(to, "src/db"), name: "http → db" },
  { from: "src/serializers", forbids: (to) => under(to, "src/db"), name: "serializers → db" },
  { from: "src/serializers", forbids: (to) => under(to, "src/services"), name: "serializers → services" },
  { from: "src/services", forbids: (to) => under(to, "src/http"), name: "services → http" },
  { from: "src/db", forbids: (to) => under(to, "src/services"), name: "db → services" },
  { from: "src/db", forbids: (to) => under(to, "src/http"), name: "db → http" },
  { from: "src/lib", forbids: (to) => !under(to, "src/lib"), name: "lib → outside lib" },
];

/** Every `.ts` file under `dir`, as paths relative to `root` with `/` separators. */
function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const p = join(abs, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && /\.(c|m)?tsx?$/.test(entry.name)) out.push(relative(root, p).split(sep).join("/"));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

const lineOf = (text: string, pos: number): number => text.slice(0, pos).split("\n").length;

/** Imports across a forbidden edge in one file (`file` relative to `root`). */
export function importViolations(root: string, file: string, text: string): Violation[] {
  const rules = RULES.filter((r) => under(file, r.from));
  if (rules.length === 0) return [];
  const out: Violation[] = [];
  for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
    if (!ref.fileName.startsWith(".")) continue;
    const to = relative(root, resolve(root, dirname(file), ref.fileName))
      .split(sep)
      .join("/");
    for (const rule of rules) {
      if (rule.forbids(to)) out.push({ file, line: lineOf(text, ref.pos), target: ref.fileName, rule: rule.name });
    }
  }
  return out;
}

/**
 * Routes reach the database only through services: no `x.repos`, no `ctx.db` (or `ctx.database`),
 * and no `{ repos }` / `{ db }` taken apart from a context. Read from the syntax tree, so comments
 * that mention them do not count.
 */
export function repositoryUseViolations(file: string, text: string): Violation[] {
  if (!under(file, "src/http")) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Violation[] = [];
  const report = (node: ts.Node): void => {
    out.push({
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      target: node.getText(source),
      rule: "http uses repositories or the database",
    });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      const owner = node.expression.getText(source);
      if (name === "repos" || ((name === "db" || name === "database") && /(^|\.)#?ctx$/.test(owner))) report(node);
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const key = node.propertyName ?? node.name;
      if (ts.isIdentifier(key) && (key.text === "repos" || key.text === "db")) report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every violation in the project at `root` (its `src/` tree). */
export function checkLayers(root: string): Violation[] {
  const out: Violation[] = [];
  for (const file of sourceFiles(root, "src")) {
    const text = readFileSync(join(root, file), "utf8");
    out.push(...importViolations(root, file, text), ...repositoryUseViolations(file, text));
  }
  return out;
}

export const formatViolation = (v: Violation): string => `${v.file}:${v.line}: ${v.target} (${v.rule})`;
