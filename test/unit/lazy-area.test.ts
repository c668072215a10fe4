import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { lazyArea } from "../../src/http/lazy-area.ts";
import { KeptMatchRouter } from "../../src/http/route-cache.ts";
import type { HonoEnv } from "../../src/http/types.ts";

/** What a test app's answers are compared by. */
async function answer(res: Response) {
  return { status: res.status, headers: [...res.headers].sort(), body: await res.text() };
}

/**
 * An app like Gannet's: a middleware before the routes (a header, a variable, and after the
 * routes a look at a variable the area set, as the request log reads `auth`), a lazy area under
 * `/area`, and a route after the area under the same prefix.
 */
function testApp() {
  let loads = 0;
  const app = new Hono<HonoEnv>({ strict: false, router: new KeptMatchRouter() });
  app.onError((error, c) => c.json({ caught: error.message }, 500));
  app.notFound((c) => c.json({ missing: c.req.path }, 404));
  app.use(async (c, next) => {
    c.header("x-before", "1");
    c.set("clientIp" as never, "203.0.113.9" as never);
    await next();
    c.res.headers.set("x-seen", String(c.get("auth" as never) ?? "none"));
  });
  lazyArea(app, ["/area", "/elsewhere"], async () => {
    loads++;
    return (area) => {
      area.get("/area/items/:id{[0-9]+}", (c) =>
        c.json({ id: c.req.param("id"), all: c.req.param(), ip: c.get("clientIp" as never) }),
      );
      area.get("/area/tags/:name", (c) => c.text(`tag ${c.req.param("name")}`));
      area.get("/area/static", (c) => {
        c.set("auth" as never, "area" as never);
        return c.html("<p>static</p>", 201, { "x-area": "yes" });
      });
      area.post("/area/form", async (c) => c.json(await c.req.parseBody()));
      area.get("/area/boom", () => {
        throw new Error("boom");
      });
      area.get("/area/pass", async (_c, next) => next());
      area.get("/elsewhere", (c) => c.text("elsewhere"));
    };
  });
  app.use("/area/form", async (c, next) => {
    // A body read before the area (as a body limit would) is the one the area reads.
    await c.req.parseBody();
    await next();
  });
  app.get("/area/after", (c) => c.text("after the area"));
  app.get("/area/pass", (c) => c.text("passed on"));
  return { app, loads: () => loads };
}

const requests: [string, RequestInit?][] = [
  ["/area/items/42"],
  ["/area/items/abc"],
  ["/area/tags/caf%C3%A9"],
  ["/area/static"],
  ["/area/static", { method: "HEAD" }],
  ["/area/form", { method: "POST", body: new URLSearchParams({ a: "1", b: "two" }) }],
  ["/area/boom"],
  ["/area/pass"],
  ["/area/after"],
  ["/area/none"],
  ["/elsewhere"],
  ["/elsewhere/none"],
];

describe("lazily loaded areas", () => {
  it("answer the same before and after the area is loaded, once dispatched in the app's own routes", async () => {
    // Each request first on an app whose area is not loaded (handed over to the area's app), then
    // on one whose area is (the app's router answers with the area's handlers).
    const cold = testApp();
    const warm = testApp();
    await warm.app.request("/area/static");
    for (const [path, init] of requests) {
      const first = await answer(await cold.app.request(path, init));
      const again = await answer(await cold.app.request(path, init));
      const loaded = await answer(await warm.app.request(path, init));
      assert.deepEqual(again, first, `${path} ${init?.method ?? "GET"}, the second time`);
      assert.deepEqual(loaded, first, `${path} ${init?.method ?? "GET"}, the area loaded`);
    }
    assert.equal(cold.loads(), 1);
    assert.equal(warm.loads(), 1);
    const items = await (await warm.app.request("/area/items/42")).json();
    assert.deepEqual(items, { id: "42", all: { id: "42" }, ip: "203.0.113.9" });
    const tag = await warm.app.request("/area/tags/caf%C3%A9");
    assert.equal(await tag.text(), "tag café");
    const missing = await warm.app.request("/area/none");
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { missing: "/area/none" });
    const boom = await warm.app.request("/area/boom");
    assert.equal(boom.status, 500);
    assert.deepEqual(await boom.json(), { caught: "boom" });
    const page = await warm.app.request("/area/static");
    assert.equal(page.status, 201);
    assert.equal(page.headers.get("x-before"), "1");
    assert.equal(page.headers.get("x-area"), "yes");
    assert.equal(page.headers.get("x-seen"), "area");
  });

  it("put the loaded area's handlers in the app's match in place of the prefix route", async () => {
    const { app } = testApp();
    const before = app.router.match("GET", "/area/items/7");
    const prefixHandler = before[0][1]?.[0][0];
    assert.equal(before[0].length, 2, "the middleware and the prefix route");
    await app.request("/area/items/7");
    const after = app.router.match("GET", "/area/items/7");
    assert.equal(after[0].length, 2, "the middleware and the area's route");
    assert.notEqual(after[0][1]?.[0][0], prefixHandler);
    assert.equal(after[0][1]?.[0][1].path, "/area/items/:id{[0-9]+}");
    // A path the area has no route for: the prefix route is gone, the routes after it stay.
    const after404 = app.router.match("GET", "/area/after");
    assert.deepEqual(
      after404[0].map(([[, route]]) => route.path),
      ["/*", "/area/after"],
    );
  });
});
