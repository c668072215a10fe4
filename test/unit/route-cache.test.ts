import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { createApp } from "../../src/http/app.ts";
import { KeptMatchRouter } from "../../src/http/route-cache.ts";

/** What a match names: each handler's route (by its index among the routes) with its parameters. */
function named(result: unknown, handlers: readonly unknown[], stash?: readonly string[]) {
  const [matches, paramStash] = result as [[unknown, Record<string, unknown>][], string[] | undefined];
  const s = stash ?? paramStash;
  return matches.map(([h, params]) => {
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(params)) values[k] = s && typeof v === "number" ? s[v] : v;
    return [handlers.indexOf(h), values];
  });
}

describe("kept route matches", () => {
  it("match what Hono's own router matches, the first time and when kept, for Gannet's routes", () => {
    const { routes } = createApp();
    const kept = new KeptMatchRouter<unknown>();
    const plain = new SmartRouter<unknown>({ routers: [new RegExpRouter(), new TrieRouter()] });
    // One handler object per route, so a match is compared by which routes it found.
    const handlers = routes.map(() => ({}));
    routes.forEach((r, i) => {
      kept.add(r.method, r.path, handlers[i]);
      plain.add(r.method, r.path, handlers[i]);
    });
    const asked: [string, string][] = [
      ["GET", "/api/v1/accounts/verify_credentials"],
      ["GET", "/api/v1/accounts/123456"],
      ["GET", "/api/v1/accounts/654321/statuses"],
      ["GET", "/api/v1/accounts/relationships"],
      ["PATCH", "/api/v1/accounts/update_credentials"],
      ["GET", "/api/v1/instance"],
      ["GET", "/api/v1/timelines/home"],
      ["POST", "/api/v1/statuses"],
      ["GET", "/api/v2/notifications/favourite-123-456"],
      ["GET", "/api/v1/no/such/thing"],
      ["GET", "/.well-known/nodeinfo"],
      ["DELETE", "/api/v1/filters/42"],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [method, path] of asked) {
        const want = named(plain.match(method, path), handlers);
        assert.deepEqual(named(kept.match(method, path), handlers), want, `${method} ${path} (round ${round})`);
        assert.ok(want.length > 0, `${method} ${path} matches at least the middleware`);
      }
    }
  });

  it("keeps a bounded number of paths, and answers the same after forgetting them", () => {
    const kept = new KeptMatchRouter<string>();
    kept.add("GET", "/things/:id{[0-9]+}", "thing");
    kept.add("GET", "/things/latest", "latest");
    for (let i = 0; i < 2500; i++) {
      const [matches] = kept.match("GET", `/things/${i}`) as unknown as [[string, Record<string, string>][]];
      assert.deepEqual(
        matches.map(([h, p]) => [h, { ...p }]),
        [["thing", { id: String(i) }]],
      );
    }
    const [latest] = kept.match("GET", "/things/latest") as unknown as [[string, unknown][]];
    assert.deepEqual(
      latest.map(([h]) => h),
      ["latest"],
    );
    const long = `/things/${"9".repeat(300)}`;
    const [once] = kept.match("GET", long) as unknown as [[string, Record<string, string>][]];
    assert.equal(once[0]?.[1].id, "9".repeat(300));
  });
});
