import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { checkLayers, formatViolation, type Violation } from "./layer-check.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A throwaway project holding `files` (path → text), for checking the checker. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "gannet-layers-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const brief = (vs: readonly Violation[]): string[] => vs.map((v) => `${v.file}:${v.line} ${v.rule}`);

describe("layers", () => {
  it("no file imports across a forbidden edge, and routes do not touch repositories", () => {
    const violations = checkLayers(ROOT);
    assert.equal(
      violations.length,
      0,
      `${violations.length} layering violation(s):\n${violations.map(formatViolation).join("\n")}`,
    );
  });

  describe("the checker", () => {
    const roots: string[] = [];
    after(() => {
      for (const r of roots) rmSync(r, { recursive: true, force: true });
    });
    const check = (files: Record<string, string>): Violation[] => {
      const root = project(files);
      roots.push(root);
      return checkLayers(root);
    };

    it("reports every forbidden edge, with `import type`, re-exports and dynamic imports", () => {
      const found = check({
        "src/http/a.ts": 'import type { Account } from "../db/repositories/accounts.ts";\n',
        "src/http/b.ts": '\n\nexport { x } from "../db/x.ts";\n',
        "src/serializers/c.ts": 'import { y } from "../db/y.ts";\nimport { z } from "../services/z.ts";\n',
        "src/services/d.ts": 'const m = await import("../http/pagination.ts");\n',
        "src/db/e.ts": 'export * from "../services/e.ts";\nimport type { T } from "../http/types.ts";\n',
        "src/lib/f.ts": 'type C = import("../config/index.ts").Config;\n',
      });
      assert.deepEqual(brief(found).sort(), [
        "src/db/e.ts:1 db → services",
        "src/db/e.ts:2 db → http",
        "src/http/a.ts:1 http → db",
        "src/http/b.ts:3 http → db",
        "src/lib/f.ts:1 lib → outside lib",
        "src/serializers/c.ts:1 serializers → db",
        "src/serializers/c.ts:2 serializers → services",
        "src/services/d.ts:1 services → http",
      ]);
      // The failure message names the file, the line and what it imported.
      assert.equal(
        formatViolation(found.find((v) => v.file === "src/http/a.ts")!),
        "src/http/a.ts:1: ../db/repositories/accounts.ts (http → db)",
      );
    });

    it("reports routes that use repositories or the database, but not comments that mention them", () => {
      const found = check({
        "src/http/routes.ts": [
          "// ctx.repos.accounts and ctx.db are for services",
          "export const a = (c: any) => c.env.ctx.repos.accounts.getById('1');",
          "export const b = (ctx: any) => ctx.db.selectFrom('x');",
          "export const d = (c: any) => { const { repos } = c.env.ctx; return repos; };",
          "export const e = (c: any) => c.env.ctx.database.changeStamp();",
          "",
        ].join("\n"),
      });
      assert.deepEqual(brief(found), [
        "src/http/routes.ts:2 http uses repositories or the database",
        "src/http/routes.ts:3 http uses repositories or the database",
        "src/http/routes.ts:4 http uses repositories or the database",
        "src/http/routes.ts:5 http uses repositories or the database",
      ]);
    });

    it("allows the edges the layering allows, and packages everywhere", () => {
      const found = check({
        "src/http/a.ts":
          'import { s } from "../services/s.ts";\nimport { z } from "zod";\nimport { x } from "../serializers/x.ts";\n',
        "src/services/s.ts":
          'import { r } from "../db/r.ts";\nimport { x } from "../serializers/x.ts";\nimport { l } from "../lib/l.ts";\n',
        "src/serializers/x.ts": 'import { l } from "../lib/l.ts";\nimport { p } from "../policies/p.ts";\n',
        "src/db/r.ts": 'import { l } from "../lib/l.ts";\nimport type { Kysely } from "kysely";\n',
        "src/lib/l.ts": 'import { createHash } from "node:crypto";\nimport { m } from "./text/m.ts";\n',
        "src/lib/text/m.ts": 'import { l } from "../l.ts";\n',
        "src/http/c.ts": "export const f = (ctx: any, x: any) => [ctx.config.baseUrl, x.db, x.repository];\n",
      });
      assert.deepEqual(brief(found), []);
    });
  });
});
