import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { COMPATIBILITY_PATH, compatibilityFile } from "../../src/http/api/placeholders/docs.ts";
import { BUILT_ELSEWHERE, NOT_SERVED, type OtherEndpoint, PLACEHOLDERS } from "../../src/http/api/placeholders.ts";
import { createApp } from "../../src/http/app.ts";
import { withLazyRoutes } from "../../src/http/lazy-area.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const CENSUS = join(ROOT, "..", "shared", "reference", "mastodon-api.md");

interface Row {
  method: string;
  path: string;
  section: string;
}

/** The endpoint rows of section 1 of the API census (methods and paths, query strings dropped). */
function censusRows(text: string): Row[] {
  const start = text.indexOf("## 1. REST endpoints");
  const end = text.indexOf("\n## 2.", start);
  const rows: Row[] = [];
  let section = "";
  for (const line of text.slice(start, end).split("\n")) {
    const heading = /^### (1\.\d+)/.exec(line);
    if (heading) section = heading[1];
    const m = /^\| (GET or POST|GET \(Upgrade\)|PATCH\/POST\/PUT|GET|POST|PUT|PATCH|DELETE) \| ([^|]+) \|/.exec(line);
    if (!m) continue;
    const path = m[2]
      .trim()
      .replace(/`/g, "")
      .split(/[\s,?[]/)[0];
    const methods =
      m[1] === "GET or POST"
        ? ["GET", "POST"]
        : m[1] === "PATCH/POST/PUT"
          ? ["PATCH", "POST", "PUT"]
          : [m[1].split(" ")[0]];
    for (const method of methods) rows.push({ method, path, section });
  }
  return rows;
}

/** `/a/:x/b` and `/a/:y/b` are the same route. */
const shape = (path: string) => path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, ":");

function covers(list: readonly OtherEndpoint[], method: string, path: string): boolean {
  return list.some((o) => {
    if (o.method !== "*" && o.method !== method) return false;
    if (o.path.endsWith("/*")) return path.startsWith(o.path.slice(0, -1)) || path === o.path.slice(0, -2);
    return shape(o.path) === shape(path);
  });
}

/** A Hono route pattern as a regular expression over concrete paths. */
function patternRegex(path: string): RegExp {
  const body = path
    .split("/")
    .map((seg) => {
      const p = /^:[A-Za-z_]+(?:\{(.+)\})?$/.exec(seg);
      if (p) return p[1] ? `(?:${p[1]})` : "[^/]+";
      if (seg === "*") return ".*";
      return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${body}/?$`);
}

/** A concrete path for a census pattern. */
const concrete = (path: string) =>
  path.replace(/:([A-Za-z_]+)/g, (_, n: string) =>
    n === "name" || n === "hashtag" ? "cats" : n === "year" ? "2024" : n === "date" ? "2025-01-01" : "1234567",
  );

const census = existsSync(CENSUS) ? censusRows(readFileSync(CENSUS, "utf8")) : undefined;

describe("placeholders against the API census", { skip: census ? false : `no census at ${CENSUS}` }, () => {
  let s: TestServer;
  let routes: { method: string; path: string }[];
  const rows = census ?? [];
  /** Census rows Gannet must route: neither streaming nor served elsewhere on purpose. */
  const routed = rows.filter((r) => r.section !== "1.30" && !covers(NOT_SERVED, r.method, r.path));

  before(async () => {
    s = await startTestServer();
    routes = (await withLazyRoutes(createApp().routes)).filter((r) => r.method !== "ALL");
  });
  after(() => s.close());

  it("parses the census", () => {
    assert.ok(rows.length >= 280, `only ${rows.length} rows parsed`);
  });

  it("has a placeholder for every census endpoint not built elsewhere, and none for the others", () => {
    const mine = new Set(PLACEHOLDERS.map((p) => `${p.method} ${shape(p.path)}`));
    const missing = routed
      .filter((r) => !covers(BUILT_ELSEWHERE, r.method, r.path))
      .filter((r) => !mine.has(`${r.method} ${shape(r.path)}`))
      .map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(missing, []);
    const clashing = PLACEHOLDERS.filter(
      (p) => covers(BUILT_ELSEWHERE, p.method, p.path) || covers(NOT_SERVED, p.method, p.path),
    )
      .filter((p) => p.path !== "/api/v1/streaming/health")
      .map((p) => `${p.method} ${p.path}`);
    assert.deepEqual(clashing, []);
    const inCensus = new Set(rows.map((r) => `${r.method} ${shape(r.path)}`));
    const extra = PLACEHOLDERS.filter((p) => !inCensus.has(`${p.method} ${shape(p.path)}`)).map(
      (p) => `${p.method} ${p.path}`,
    );
    assert.deepEqual(extra, []);
  });

  it("routes every census endpoint of the placeholders' share, each to its own route (no other route shadows it)", () => {
    const wrong: string[] = [];
    for (const r of routed.filter((x) => !covers(BUILT_ELSEWHERE, x.method, x.path))) {
      const path = concrete(r.path);
      const first = routes.find((x) => x.method === r.method && patternRegex(x.path).test(path));
      if (!first) wrong.push(`${r.method} ${r.path}: no route`);
      else if (shape(first.path) !== shape(r.path)) wrong.push(`${r.method} ${r.path}: answered by ${first.path}`);
    }
    assert.deepEqual(wrong, []);
  });

  it("lists the endpoints built elsewhere that are not routed yet", async (t) => {
    // Informative only: those endpoints belong to other work. Middleware-only paths count here,
    // because Fedify answers WebFinger through `app.use`.
    const all = (await withLazyRoutes(createApp().routes)).filter((r) => !r.path.endsWith("*"));
    const missing = routed
      .filter((r) => covers(BUILT_ELSEWHERE, r.method, r.path))
      .filter(
        (r) =>
          !all.some(
            (x) => (x.method === r.method || x.method === "ALL") && patternRegex(x.path).test(concrete(r.path)),
          ),
      )
      .map((r) => `${r.method} ${r.path}`);
    t.diagnostic(
      missing.length === 0 ? "every endpoint built elsewhere is routed" : `not routed yet: ${missing.join(", ")}`,
    );
  });

  it("answers every GET of its share without a server error", async () => {
    // The not-found handler and a record lookup both answer 404 `Record not found`, so whether a
    // route exists is proven against the router above; here each GET is asked for real.
    const failures: string[] = [];
    for (const r of routed.filter((x) => x.method === "GET" && !covers(BUILT_ELSEWHERE, x.method, x.path))) {
      const res = await s.request(concrete(r.path));
      if (res.status >= 500) failures.push(`${r.path}: ${res.status}`);
    }
    assert.deepEqual(failures, []);
  });
});

describe("docs/compatibility.md", () => {
  it("is generated from the placeholder tables", () => {
    const doc = readFileSync(join(ROOT, COMPATIBILITY_PATH), "utf8");
    assert.equal(doc, compatibilityFile(), "regenerate it with: npm run docs");
  });
});
