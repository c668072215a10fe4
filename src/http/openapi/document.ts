import type { RouterRoute } from "hono/types";
import { ALL_SCOPES } from "../../lib/scopes.ts";
import { GANNET_VERSION, MASTODON_COMPAT_VERSION } from "../../lib/version.ts";
import { type GuardTag, guardTags } from "../middleware/auth.ts";
import { entityComponents } from "./entities/index.ts";
import { openapiPath, operationId } from "./paths.ts";
import { placeholderDoc } from "./placeholders.ts";
import { AREA_TAGS, ROUTE_DOCS } from "./registry.ts";
import { jsonSchemaOf, type Parameter, queryParameters } from "./schema.ts";
import type { Answer, RouteDoc } from "./types.ts";

type Json = Record<string, unknown>;

/** One route of the app: method, Hono path, and the guards among its handlers. */
export interface RouteEntry {
  method: string;
  path: string;
  guards: GuardTag[];
}

/** The routes of `app.routes`, one per method and path (middleware registered with `app.use` left out). */
export function routeTable(routes: readonly RouterRoute[]): RouteEntry[] {
  const out = new Map<string, RouteEntry>();
  for (const r of routes) {
    if (r.method === "ALL") continue;
    const key = `${r.method} ${r.path}`;
    let e = out.get(key);
    if (!e) out.set(key, (e = { method: r.method, path: r.path, guards: [] }));
    const tag = guardTags.get(r.handler as never);
    if (tag) e.guards.push(tag);
  }
  return [...out.values()];
}

const ERROR_TEXT: Record<number, string> = {
  400: "A required parameter is missing",
  401: "No valid access token",
  403: "The token lacks the scope, or the account may not do this",
  404: "No such record, or not visible to the token",
  410: "The record was deleted",
  422: "Validation failed, or the endpoint needs a user token",
  429: "Rate limited",
};

const PAGE_PARAMS: Parameter[] = [
  { name: "max_id", in: "query", description: "Results older than this id", schema: { type: "string" } },
  { name: "since_id", in: "query", description: "Results newer than this id", schema: { type: "string" } },
  { name: "min_id", in: "query", description: "Results just newer than this id", schema: { type: "string" } },
];

const LINK_HEADER = {
  Link: {
    description: 'Pagination: `<url>; rel="next"` (older results) and `<url>; rel="prev"` (newer results)',
    schema: { type: "string" },
  },
};

/** An answer as an OpenAPI response object; entity names are collected in `refs`. */
function response(answer: Answer, description: string, refs: Set<string>, headers?: Json): Json {
  const base: Json = { description, ...(headers ? { headers } : {}) };
  if (answer === null) return base;
  if (typeof answer === "string") {
    const list = answer.endsWith("[]");
    const name = list ? answer.slice(0, -2) : answer;
    refs.add(name);
    const ref = { $ref: `#/components/schemas/${name}` };
    return { ...base, content: { "application/json": { schema: list ? { type: "array", items: ref } : ref } } };
  }
  return {
    ...base,
    description: answer.description ?? description,
    content: { [answer.type ?? "application/json"]: { schema: answer.schema } },
  };
}

function answerText(a: Answer): string {
  if (a === null) return "No content";
  if (typeof a === "string") {
    if (a.endsWith("[]")) return `A list of ${a.slice(0, -2)}`;
    return /^[AEIOU]/.test(a) ? `An ${a}` : `A ${a}`;
  }
  return a.description ?? "Success";
}

/** What the guards of a route (or its description, for hand-checked routes) ask for. */
function access(guards: GuardTag[], doc: RouteDoc): { kind: string; scopes: readonly string[]; permission?: number } {
  const guard = guards.find((g) => g.kind !== "permission");
  const permission = guards.find((g) => g.kind === "permission")?.permission;
  if (guard) return { kind: guard.kind, scopes: guard.scopes, permission };
  if (doc.auth && doc.auth !== "none") return { kind: doc.auth, scopes: doc.scopes ?? [] };
  return { kind: "public", scopes: [] };
}

/** One requirement per scope (any one of them will do); `{}` first when a token is optional. */
function security(kind: string, scopes: readonly string[]): Json[] {
  if (kind === "public") return [];
  const needed = scopes.length > 0 ? scopes.map((s) => ({ OAuth2: [s] })) : [{ OAuth2: [] }];
  return kind === "optional" ? [{}, ...needed] : needed;
}

function errorCodes(kind: string, doc: RouteDoc, hasPathParams: boolean, validates: boolean): number[] {
  const codes = new Set<number>();
  if (kind === "user" || kind === "token" || kind === "optional") codes.add(401).add(403);
  if (kind === "user" || kind === "signed-in") codes.add(422).add(403);
  if (hasPathParams && !doc.external) codes.add(404);
  if (validates) codes.add(422);
  if (doc.paginated) codes.add(400);
  for (const e of doc.errors ?? []) codes.add(e);
  return [...codes].sort((a, b) => a - b);
}

/** The OpenAPI operation of one route. */
function operation(method: string, honoPath: string, doc: RouteDoc, guards: GuardTag[], refs: Set<string>): Json {
  const { path, parameters: pathParams } = openapiPath(honoPath);
  for (const p of pathParams) {
    const d = doc.pathDescriptions?.[p.name];
    if (d) p.description = d;
  }
  const query = doc.query ? queryParameters(doc.query) : [];
  const parameters: Parameter[] = [...pathParams, ...query];
  const names = new Set(parameters.map((p) => p.name));
  const paged = doc.paginated;
  if (paged) {
    for (const p of PAGE_PARAMS) if (!names.has(p.name)) parameters.push(p);
    if (!names.has("limit")) {
      const { limit, max } = typeof paged === "object" ? paged : { limit: 20, max: 40 };
      parameters.push({
        name: "limit",
        in: "query",
        description: `How many results (default ${limit}; more than ${max} is taken as ${max}; 0 is the default)`,
        schema: { type: "integer", minimum: 0, default: limit },
      });
    }
  }
  const { kind, scopes, permission } = access(guards, doc);
  const status = doc.status ?? (doc.ok === null ? 204 : 200);
  const responses: Json = {
    [status]: response(doc.ok, answerText(doc.ok), refs, paged ? LINK_HEADER : undefined),
  };
  for (const [code, a] of Object.entries(doc.answers ?? {})) responses[code] = response(a, answerText(a), refs);
  for (const code of errorCodes(kind, doc, pathParams.length > 0, doc.validates ?? Boolean(doc.query || doc.body))) {
    if (responses[code]) continue;
    if (ERROR_TEXT[code]) {
      refs.add("Error");
      responses[code] = { $ref: `#/components/responses/Error${code}` };
    } else responses[code] = response("Error", "Error", refs);
  }
  const notes = [
    doc.description,
    permission !== undefined
      ? `Needs a role granting the permission bits ${permission} (\`x-gannet-permission\`).`
      : undefined,
    doc.paginated ? "Paginated: follow the `Link` header's `next` and `prev`." : undefined,
  ].filter(Boolean);
  const op: Json = {
    operationId: operationId(method, path),
    summary: doc.summary,
    ...(notes.length > 0 ? { description: notes.join(" ") } : {}),
    tags: doc.tags ?? [],
    ...(parameters.length > 0 ? { parameters } : {}),
  };
  if (doc.body) {
    const schema = jsonSchemaOf(doc.body);
    op.requestBody = {
      content: doc.multipart
        ? { "multipart/form-data": { schema } }
        : { "application/json": { schema }, "application/x-www-form-urlencoded": { schema } },
    };
  }
  op.responses = responses;
  op.security = security(kind, scopes);
  op["x-gannet-auth"] = kind;
  if (permission !== undefined) op["x-gannet-permission"] = permission;
  if (doc.deprecated) op.deprecated = true;
  if (doc.external) op["x-gannet-external"] = true;
  return op;
}

export interface BuildOptions {
  /** The server's own URL; absent, a templated one (for docs/openapi.json). */
  serverUrl?: string;
}

export interface Built {
  document: Json;
  /** Routes of the app with no description (the test fails on any). */
  undescribed: string[];
  /** Descriptions of routes the app does not have (a renamed or removed route). */
  stale: string[];
  /** Entity names the operations refer to. */
  refs: Set<string>;
}

/** The OpenAPI 3.1 document of the app whose `routes` are given. */
export function buildDocument(routes: readonly RouterRoute[], opts: BuildOptions = {}): Built {
  const refs = new Set<string>();
  const paths: Record<string, Json> = {};
  const undescribed: string[] = [];
  const add = (method: string, honoPath: string, doc: RouteDoc, guards: GuardTag[], extra: Json = {}) => {
    const op = { ...operation(method, honoPath, doc, guards, refs), ...extra };
    const { path } = openapiPath(honoPath);
    const item = (paths[path] ??= {});
    const m = method.toLowerCase();
    if (item[m]) throw new Error(`Two routes describe ${method} ${path}`);
    item[m] = op;
  };
  const table = routeTable(routes);
  const served = new Set(table.map((r) => `${r.method} ${r.path}`));
  const stale = Object.keys(ROUTE_DOCS).filter((k) => !ROUTE_DOCS[k].external && !served.has(k));
  for (const r of table) {
    const key = `${r.method} ${r.path}`;
    const doc = ROUTE_DOCS[key];
    if (doc) {
      add(r.method, r.path, doc, r.guards);
      continue;
    }
    const ph = placeholderDoc(r.method, r.path);
    if (ph) {
      add(r.method, r.path, ph, r.guards, { "x-gannet-placeholder": true });
      continue;
    }
    undescribed.push(key);
    add(r.method, r.path, { summary: `${key} (undescribed)`, ok: { schema: {} } }, r.guards, {
      "x-gannet-undescribed": true,
    });
  }
  for (const [key, doc] of Object.entries(ROUTE_DOCS)) {
    if (!doc.external) continue;
    const [method, path] = key.split(" ");
    add(method, path, doc, []);
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const document: Json = {
    openapi: "3.1.0",
    info: {
      title: "Gannet API",
      version: GANNET_VERSION,
      summary: "The Mastodon client API, OAuth, and federation endpoints Gannet serves",
      description: `Gannet speaks the Mastodon client API (compatible with Mastodon ${MASTODON_COMPAT_VERSION}). Generated from the routes' own validation schemas; see docs/api.md.`,
      license: { name: "AGPL-3.0-only", identifier: "AGPL-3.0-only" },
    },
    servers: opts.serverUrl
      ? [{ url: opts.serverUrl }]
      : [{ url: "https://{host}", variables: { host: { default: "gannet.example" } } }],
    tags: AREA_TAGS,
    paths: sorted,
    components: {
      schemas: entityComponents(),
      responses: Object.fromEntries(
        Object.entries(ERROR_TEXT).map(([code, text]) => [`Error${code}`, response("Error", text, new Set())]),
      ),
      securitySchemes: {
        OAuth2: {
          type: "oauth2",
          description: "Mastodon's OAuth 2: register an app at POST /api/v1/apps, then get a token",
          flows: {
            authorizationCode: {
              authorizationUrl: "/oauth/authorize",
              tokenUrl: "/oauth/token",
              scopes: scopeTable(),
            },
            clientCredentials: { tokenUrl: "/oauth/token", scopes: scopeTable() },
          },
        },
      },
    },
  };
  return { document, undescribed, stale, refs };
}

const WHOLE: Record<string, string> = {
  read: "Read everything",
  write: "Write everything",
  follow: "Follows, blocks and mutes (read and write; deprecated)",
  push: "Web Push subscriptions",
  profile: "Only the user's own profile (verify_credentials, userinfo)",
  crypto: "End-to-end encryption: device keys and encrypted messages",
};

/** Every scope of src/lib/scopes.ts with a one-line meaning. */
function scopeTable(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of ALL_SCOPES) {
    const [level, what, sub] = s.split(":");
    if (level === "admin") out[s] = sub ? `Admin ${what}: ${sub.replace(/_/g, " ")}` : `Admin ${what}: everything`;
    else if (what) out[s] = `${level[0].toUpperCase()}${level.slice(1)} ${what.replace(/_/g, " ")}`;
    else out[s] = WHOLE[s] ?? s;
  }
  return out;
}
