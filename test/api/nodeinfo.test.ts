import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { Ajv } from "ajv";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/**
 * The NodeInfo schemas are draft-04, which ajv 8 only reads with the separate `ajv-draft-04`
 * package. Dropping `$schema` and the draft-04 `id` lets plain Ajv compile them; nothing else
 * in these two schemas differs between draft-04 and the drafts ajv 8 implements (no boolean
 * exclusiveMinimum/Maximum, no `id`-based references). The tests below show it still rejects.
 */
function nodeInfoValidator(version: "2.0" | "2.1"): { (doc: unknown): boolean; errors(): string } {
  const url = new URL(`../fixtures/nodeinfo-${version}.schema.json`, import.meta.url);
  const { $schema, id, ...schema } = JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>;
  assert.equal($schema, "http://json-schema.org/draft-04/schema#");
  assert.equal(id, `http://nodeinfo.diaspora.software/ns/schema/${version}#`);
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  // A plain boolean, not ajv's type guard, so a document keeps its type after the check.
  return Object.assign((doc: unknown): boolean => validate(doc), { errors: () => JSON.stringify(validate.errors) });
}

const PROFILE = (v: string) => `application/json; profile="http://nodeinfo.diaspora.software/ns/schema/${v}#"`;

describe("NodeInfo", () => {
  let s: TestServer;
  let base: string;
  const validate = { "2.0": nodeInfoValidator("2.0"), "2.1": nodeInfoValidator("2.1") };
  before(async () => {
    s = await startTestServer({ SITE_TITLE: "Node Test", SITE_DESCRIPTION: "Described" });
    base = s.ctx.config.baseUrl;
    await s.createUser("member");
  });
  after(() => s.close());

  it("links both documents from /.well-known/nodeinfo", async () => {
    const r = await s.request("/.well-known/nodeinfo");
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(r.body, {
      links: [
        { rel: "http://nodeinfo.diaspora.software/ns/schema/2.0", href: `${base}/nodeinfo/2.0` },
        { rel: "http://nodeinfo.diaspora.software/ns/schema/2.1", href: `${base}/nodeinfo/2.1` },
      ],
    });
  });

  it("serves a 2.0 document that is valid against the 2.0 schema", async () => {
    const r = await s.request("/nodeinfo/2.0");
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), PROFILE("2.0"));
    assert.match(r.headers.get("cache-control") ?? "", /^public, max-age=\d+$/);
    assert.ok(validate["2.0"](r.body), validate["2.0"].errors());
    assert.deepEqual(Object.keys(r.body).sort(), [
      "metadata",
      "openRegistrations",
      "protocols",
      "services",
      "software",
      "usage",
      "version",
    ]);
    assert.equal(r.body.version, "2.0");
    assert.deepEqual(r.body.software, { name: "gannet", version: "0.1.0" });
    assert.deepEqual(r.body.protocols, ["activitypub"]);
    assert.deepEqual(r.body.services, { inbound: [], outbound: [] });
    assert.equal(r.body.openRegistrations, true);
    assert.deepEqual(r.body.usage, { users: { total: 1, activeMonth: 0, activeHalfyear: 0 }, localPosts: 0 });
    assert.deepEqual(r.body.metadata, {
      nodeName: "Node Test",
      nodeDescription: "Described",
      upstream: { name: "mastodon", version: "4.5.0" },
    });
  });

  it("serves a 2.1 document that is valid against the 2.1 schema", async () => {
    const r = await s.request("/nodeinfo/2.1");
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), PROFILE("2.1"));
    assert.ok(validate["2.1"](r.body), validate["2.1"].errors());
    assert.equal(r.body.version, "2.1");
    assert.equal(r.body.software.name, "gannet");
    assert.equal(r.body.software.repository, s.ctx.config.sourceUrl);
    assert.match(r.body.software.homepage, /^https:\/\//);
    assert.equal(r.body.metadata.upstream.name, "mastodon");
  });

  it("the schema check rejects documents that break the spec", async () => {
    const doc = (await s.request("/nodeinfo/2.0")).body;
    const v20 = validate["2.0"];
    assert.equal(v20({ ...doc, extra: true }), false, "an extra top-level key");
    assert.equal(v20({ ...doc, version: "2.1" }), false, "the wrong version");
    assert.equal(v20({ ...doc, software: { ...doc.software, name: "Gannet" } }), false, "a capitalised name");
    assert.equal(v20({ ...doc, software: { ...doc.software, repository: "x" } }), false, "2.1-only software keys");
    assert.equal(v20({ ...doc, protocols: [] }), false, "no protocol");
    assert.equal(v20({ ...doc, usage: { users: { total: -1 } } }), false, "a negative count");
    const { metadata: _, ...noMetadata } = doc;
    assert.equal(v20(noMetadata), false, "a missing required key");
    const doc21 = (await s.request("/nodeinfo/2.1")).body;
    assert.equal(validate["2.1"]({ ...doc21, version: "2.0" }), false);
    assert.equal(validate["2.1"]({ ...doc21, extra: 1 }), false);
  });

  it("answers trailing-slash paths too", async () => {
    assert.equal((await s.request("/nodeinfo/2.0/")).body.version, "2.0");
    assert.ok(Array.isArray((await s.request("/.well-known/nodeinfo/")).body.links));
  });

  it("is public with CORS", async () => {
    const r = await s.request("/nodeinfo/2.0", { headers: { origin: "https://elsewhere.example" } });
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
    const d = await s.request("/.well-known/nodeinfo", { headers: { origin: "https://elsewhere.example" } });
    assert.equal(d.headers.get("access-control-allow-origin"), "*");
    const pre = await fetch(`${s.url}/nodeinfo/2.0`, {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" },
    });
    assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  });

  it("reuses its usage numbers for a while instead of counting on every request", async () => {
    const first = (await s.request("/nodeinfo/2.0")).body.usage.users.total;
    await s.createUser("another");
    assert.equal((await s.request("/nodeinfo/2.0")).body.usage.users.total, first);
  });
});
