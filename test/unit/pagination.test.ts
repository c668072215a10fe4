import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { onError } from "../../src/http/middleware/errors.ts";
import { pageParams, setLinkHeader } from "../../src/http/pagination.ts";
import type { HonoEnv } from "../../src/http/types.ts";

/** A tiny app around the helpers, with a list of `n` items whose ids are 100..(100+n-1). */
function app(n: number) {
  const ctx = { config: { baseUrl: "https://gannet.example" } } as never;
  const a = new Hono<HonoEnv>();
  a.onError(onError);
  a.get("/api/v1/things", (c) => {
    const page = pageParams(c, 20, 40);
    let ids = Array.from({ length: n }, (_, i) => String(100 + n - 1 - i));
    if (page.maxId) ids = ids.filter((id) => BigInt(id) < BigInt(page.maxId as string));
    if (page.minId) ids = ids.filter((id) => BigInt(id) > BigInt(page.minId as string)).slice(-page.limit);
    ids = ids.slice(0, page.limit);
    setLinkHeader(c, page, ids.length, ids[0], ids.at(-1));
    return c.json({ limit: page.limit, ids });
  });
  return { request: (path: string) => a.request(path, undefined, { ctx }) };
}

describe("pagination helper", () => {
  it("defaults and clamps limit", async () => {
    assert.equal((await (await app(0).request("/api/v1/things")).json()).limit, 20);
    assert.equal((await (await app(0).request("/api/v1/things?limit=1000")).json()).limit, 40);
    assert.equal((await (await app(0).request("/api/v1/things?limit=5")).json()).limit, 5);
  });

  it("rejects a negative or non-numeric limit with 400", async () => {
    const r = await app(0).request("/api/v1/things?limit=-1");
    assert.equal(r.status, 400);
    assert.ok((await r.json()).error);
    assert.equal((await app(0).request("/api/v1/things?limit=ten")).status, 400);
  });

  it("links to the next (older) and previous (newer) pages, keeping other parameters", async () => {
    const r = await app(50).request("/api/v1/things?limit=10&only_media=true");
    const body = await r.json();
    assert.equal(body.ids.length, 10);
    const link = r.headers.get("link") ?? "";
    assert.match(link, /<https:\/\/gannet\.example\/api\/v1\/things\?limit=10&only_media=true&max_id=140>; rel="next"/);
    assert.match(link, /<https:\/\/gannet\.example\/api\/v1\/things\?limit=10&only_media=true&min_id=149>; rel="prev"/);
  });

  it("omits next on a short page and still sends a Link header on an empty page", async () => {
    const r = await app(3).request("/api/v1/things?limit=10");
    assert.doesNotMatch(r.headers.get("link") ?? "", /rel="next"/);
    const empty = await app(0).request("/api/v1/things?max_id=123");
    assert.match(empty.headers.get("link") ?? "", /min_id=123>; rel="prev"/);
  });

  it("ignores cursors that are not IDs instead of failing", async () => {
    const r = await app(5).request("/api/v1/things?max_id=abc");
    assert.equal(r.status, 200);
    assert.equal((await r.json()).ids.length, 5);
  });

  it("writes the links as URL and URLSearchParams do, asked once or again, with parameters needing encoding", async () => {
    // The reference: the links drawn with a fresh URL and URLSearchParams for each request.
    const expected = (path: string, params: [string, string][], rel: [string, string, string][]) =>
      rel
        .map(([param, id, r]) => {
          const q = new URLSearchParams(params);
          q.set(param, id);
          return `<${new URL(path, "https://gannet.example").href}?${q.toString()}>; rel="${r}"`;
        })
        .join(", ");
    const url =
      "/api/v1/things?limit=2&any[]=a%20b&any[]=%C3%A9t%C3%A9&access_token=x&since_id=5&only_media=&q=a+b%26c";
    const carried: [string, string][] = [
      ["limit", "2"],
      ["any[]", "a b"],
      ["any[]", "été"],
      ["only_media", ""],
      ["q", "a b&c"],
    ];
    const a = app(5);
    for (let i = 0; i < 2; i++) {
      const r = await a.request(url);
      assert.equal(
        r.headers.get("link"),
        expected("/api/v1/things", carried, [
          ["max_id", "103", "next"],
          ["min_id", "104", "prev"],
        ]),
      );
    }
    const empty = await a.request("/api/v1/things?max_id=99");
    assert.equal(empty.headers.get("link"), expected("/api/v1/things", [], [["min_id", "99", "prev"]]));
  });
});
