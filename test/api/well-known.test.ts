import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

interface Jrd {
  subject: string;
  aliases?: string[];
  links: { rel: string; type?: string; href?: string; template?: string }[];
}

describe("host-meta and WebFinger", () => {
  let s: TestServer;
  let base: string;
  let domain: string;
  const finger = (resource: string, headers?: Record<string, string>) =>
    s.request<Jrd>(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, { headers });

  before(async () => {
    s = await startTestServer();
    base = s.ctx.config.baseUrl;
    domain = s.ctx.config.localDomain;
    await s.createUser("alice");
    await s.createUser("unconfirmed", { confirmed: false });
    await s.createUser("unapproved", { approved: false });
  });
  after(() => s.close());

  describe("host-meta", () => {
    const template = () => `${base}/.well-known/webfinger?resource={uri}`;

    it("is XRD XML with an lrdd template pointing at WebFinger", async () => {
      const r = await s.request<string>("/.well-known/host-meta");
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type") ?? "", /^application\/xrd\+xml/);
      assert.match(r.body, /^<\?xml version="1\.0" encoding="UTF-8"\?>/);
      assert.match(r.body, /<XRD xmlns="http:\/\/docs\.oasis-open\.org\/ns\/xri\/xrd-1\.0">/);
      const link = /<Link rel="lrdd" template="([^"]+)"\s*\/>/.exec(r.body);
      assert.ok(link, r.body);
      assert.equal(link[1], template());
      assert.match(r.headers.get("cache-control") ?? "", /public/);
    });

    it("is JSON with ?format=json or an Accept asking for JSON", async () => {
      for (const r of [
        await s.request("/.well-known/host-meta?format=json"),
        await s.request("/.well-known/host-meta", { headers: { accept: "application/json" } }),
        await s.request("/.well-known/host-meta", { headers: { accept: "application/jrd+json" } }),
      ]) {
        assert.equal(r.status, 200);
        assert.match(r.headers.get("content-type") ?? "", /^application\/json/);
        assert.deepEqual(r.body, { links: [{ rel: "lrdd", template: template() }] });
      }
      const xml = await s.request("/.well-known/host-meta", { headers: { accept: "application/xrd+xml" } });
      assert.match(xml.headers.get("content-type") ?? "", /^application\/xrd\+xml/);
    });

    it("has CORS", async () => {
      const r = await s.request("/.well-known/host-meta", { headers: { origin: "https://x.example" } });
      assert.equal(r.headers.get("access-control-allow-origin"), "*");
    });

    it("leads a client to a working WebFinger lookup", async () => {
      const r = await s.request("/.well-known/host-meta?format=json");
      const url = new URL(r.body.links[0].template.replace("{uri}", encodeURIComponent(`acct:alice@${domain}`)));
      const res = await fetch(`${s.url}${url.pathname}${url.search}`);
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as Jrd).subject, `acct:alice@${domain}`);
    });
  });

  describe("WebFinger (served by Fedify)", () => {
    it("describes a local user by acct: URI", async () => {
      const r = await finger(`acct:alice@${domain}`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type") ?? "", /^application\/jrd\+json/);
      assert.equal(r.body.subject, `acct:alice@${domain}`);
      assert.ok(r.body.aliases?.includes(`${base}/users/alice`), JSON.stringify(r.body.aliases));
      const self = r.body.links.find((l) => l.rel === "self");
      assert.deepEqual(self, { rel: "self", type: "application/activity+json", href: `${base}/users/alice` });
      const profile = r.body.links.find((l) => l.rel === "http://webfinger.net/rel/profile-page");
      assert.equal(profile?.href, `${base}/@alice`);
    });

    it("matches the username case-insensitively", async () => {
      const r = await finger(`acct:ALICE@${domain}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.links.find((l) => l.rel === "self")?.href, `${base}/users/alice`);
    });

    it("resolves the actor URL as the resource", async () => {
      const r = await finger(`${base}/users/alice`);
      assert.equal(r.status, 200);
      assert.ok(r.body.aliases?.includes(`acct:alice@${domain}`), JSON.stringify(r.body.aliases));
      assert.equal(r.body.links.find((l) => l.rel === "self")?.href, `${base}/users/alice`);
    });

    it("the self link dereferences to the ActivityPub actor", async () => {
      const r = await finger(`acct:alice@${domain}`);
      const href = r.body.links.find((l) => l.rel === "self")?.href ?? "";
      const actor = await fetch(`${s.url}${new URL(href).pathname}`, {
        headers: { accept: "application/activity+json" },
      });
      assert.equal(actor.status, 200);
      const body = (await actor.json()) as { id: string; preferredUsername: string };
      assert.equal(body.id, href);
      assert.equal(body.preferredUsername, "alice");
    });

    it("answers 404 for unknown users, other domains, and unconfirmed or unapproved users", async () => {
      for (const resource of [
        `acct:nobody@${domain}`,
        "acct:alice@elsewhere.example",
        `acct:unconfirmed@${domain}`,
        `acct:unapproved@${domain}`,
        `${base}/users/unconfirmed`,
        `${base}/users/nobody`,
      ]) {
        assert.equal((await finger(resource)).status, 404, resource);
      }
    });

    it("answers 400 without a resource", async () => {
      const r = await s.request("/.well-known/webfinger");
      assert.equal(r.status, 400);
    });

    it("has CORS", async () => {
      const r = await finger(`acct:alice@${domain}`, { origin: "https://x.example" });
      assert.equal(r.headers.get("access-control-allow-origin"), "*");
    });
  });
});
