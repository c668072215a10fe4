import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { negotiateLocale, translator } from "../../src/http/web/i18n/index.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { WebClient } from "../helpers/web.ts";

describe("web layout, assets and texts", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("serves pages in one layout: lang, skip link, navigation, stylesheet, strict CSP", async () => {
    const web = new WebClient(s);
    const page = await web.get("/auth/sign_in", { "accept-language": "fr-CH, en;q=0.8" });
    assert.equal(page.status, 200);
    assert.equal(page.doc.querySelector("html")?.getAttribute("lang"), "en");
    assert.equal(page.headers.get("content-language"), "en");
    assert.equal(page.doc.querySelector("a.skip")?.getAttribute("href"), "#content");
    assert.ok(page.doc.querySelector("main#content"));
    assert.ok(page.doc.querySelector('header nav a[href="/auth/sign_in"]'));
    const css = page.doc.querySelector('link[rel="stylesheet"]')?.getAttribute("href") ?? "";
    assert.match(css, /^\/assets\/gannet\.css\?v=[0-9a-f]{12}$/);
    const csp = page.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline/);

    const asset = await s.request<string>(css);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get("content-type") ?? "", /^text\/css/);
    assert.match(asset.headers.get("cache-control") ?? "", /immutable/);
    assert.match(asset.body, /:focus-visible/);
    const stale = await s.request<string>("/assets/gannet.css?v=000000000000");
    assert.doesNotMatch(stale.headers.get("cache-control") ?? "", /immutable/);
    assert.equal((await s.request("/assets/nope.js")).status, 404);
  });

  it("negotiates the locale from the user's setting, then Accept-Language, then English", () => {
    assert.equal(negotiateLocale(undefined, undefined), "en");
    assert.equal(negotiateLocale(undefined, "de-DE,de;q=0.9,en-GB;q=0.5"), "en");
    assert.equal(negotiateLocale("en-GB", "de"), "en");
    assert.equal(negotiateLocale("xx", "*;q=0.1"), "en");
    const t = translator("en");
    assert.equal(t("common.powered_by", { software: "Gannet <1>" }), "Powered by Gannet <1>");
    assert.equal(t.html("common.powered_by", { software: "<b>" }).value, "Powered by &lt;b&gt;");
    assert.equal(t("common.not_found"), "Not found");
  });
});
