import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Hono } from "hono";
import { LAZY_API_AREAS } from "../../src/http/app.ts";
import type { AreaRoutes } from "../../src/http/lazy-area.ts";
import type { HonoEnv } from "../../src/http/types.ts";
import { LAZY_WEB_AREAS } from "../../src/http/web/routes.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { signIn } from "../helpers/web.ts";

const API_AREAS: Record<keyof typeof LAZY_API_AREAS, () => Promise<AreaRoutes>> = {
  announcements: async () => (await import("../../src/http/api/v1/announcements/routes.ts")).announcementRoutes,
  push: async () => (await import("../../src/http/api/v1/push/routes.ts")).pushRoutes,
  scheduledStatuses: async () =>
    (await import("../../src/http/api/v1/scheduled-statuses/routes.ts")).scheduledStatusRoutes,
  reports: async () => (await import("../../src/http/api/v1/reports/routes.ts")).reportRoutes,
  admin: async () => (await import("../../src/http/api/v1/admin/index.ts")).adminRoutes,
  filters: async () => (await import("../../src/http/api/v2/filters/routes.ts")).filterRoutes,
  v1Filters: async () => (await import("../../src/http/api/v1/filters/routes.ts")).v1FilterRoutes,
};

const WEB_AREAS: Record<keyof typeof LAZY_WEB_AREAS, () => Promise<AreaRoutes>> = {
  auth: async () => (await import("../../src/http/web/auth/routes.ts")).authRoutes,
  security: async () => (await import("../../src/http/web/security/routes.ts")).securityRoutes,
  settings: async () => (await import("../../src/http/web/settings/routes.ts")).settingsRoutes,
  data: async () => (await import("../../src/http/web/data/routes.ts")).dataRoutes,
  admin: async () => (await import("../../src/http/web/admin/routes.ts")).adminPages,
  client: async () => (await import("../../src/http/web/client/routes.ts")).clientRoutes,
};

/** The paths an area registers, read by handing it an app that only records them. */
function pathsOf(routes: AreaRoutes): string[] {
  const paths: string[] = [];
  const recorder: Hono<HonoEnv> = new Proxy({} as Hono<HonoEnv>, {
    get: (_target, method) => (path: unknown) => {
      paths.push(typeof path === "string" ? path : `(${String(method)} without a path)`);
      return recorder;
    },
  });
  routes(recorder);
  return paths;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

describe("areas loaded on their first request", () => {
  it("every route of each lazily loaded area lies under its prefixes", async () => {
    const areas = [
      ...Object.entries(WEB_AREAS).map(([name, load]) => [
        name,
        load,
        LAZY_WEB_AREAS[name as keyof typeof LAZY_WEB_AREAS],
      ]),
      ...Object.entries(API_AREAS).map(([name, load]) => [
        name,
        load,
        LAZY_API_AREAS[name as keyof typeof LAZY_API_AREAS],
      ]),
    ] as [string, () => Promise<AreaRoutes>, readonly string[]][];
    for (const [name, load, prefixes] of areas) {
      const paths = pathsOf(await load());
      assert.ok(paths.length > 0, `${name} registers routes`);
      const outside = paths.filter((p) => !prefixes.some((prefix) => under(p, prefix)));
      assert.deepEqual(outside, [], `${name}: routes outside ${prefixes.join(", ")}`);
    }
  });

  describe("served", () => {
    let s: TestServer;
    let admin: TestUser;
    before(async () => {
      s = await startTestServer();
      admin = await s.createUser("boss", {
        role: "Owner",
        scopes: "read write follow push profile admin:read admin:write",
      });
    });
    after(() => s.close());

    it("answers anonymous visitors as before: a redirect to sign in, the app's 404 for unknown paths", async () => {
      const page = await s.request("/admin/dashboard");
      assert.equal(page.status, 302);
      assert.match(page.headers.get("location") ?? "", /\/auth\/sign_in/);
      // Under a lazy prefix but no route of the area: the app's own 404, from the routes after.
      const missing = await s.request("/admin/no-such-page");
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { error: "Record not found" });
      const head = await s.request("/admin/dashboard", { method: "HEAD" });
      assert.equal(head.status, 302);
    });

    it("serves pages of an area after others under the same prefix, signed in, forms checked", async () => {
      const web = await signIn(s, admin);
      // /settings/export belongs to the data area, after security and settings (both /settings).
      const exportPage = await web.get("/settings/export");
      assert.equal(exportPage.status, 200);
      const profile = await web.get("/settings/profile");
      assert.equal(profile.status, 200);
      const forged = await web.submit(profile, "/settings/profile", { authenticity_token: "forged" });
      assert.equal(forged.status, 422);
      const dashboard = await web.get("/admin/dashboard");
      assert.equal(dashboard.status, 200);
      assert.match(dashboard.headers.get("content-type") ?? "", /text\/html/);
      const home = await web.get("/home");
      assert.equal(home.status, 200);
    });

    it("serves the API areas with the /api middleware's token and its errors", async () => {
      const anonymous = await s.request("/api/v1/admin/accounts");
      assert.equal(anonymous.status, 401);
      const token = admin.token;
      const filters = await s.request("/api/v2/filters", { token });
      assert.equal(filters.status, 200);
      assert.deepEqual(filters.body, []);
      // /api/v1/filters: the v2 area first, then the v1 one, as registered.
      const v1 = await s.request("/api/v1/filters", { token });
      assert.equal(v1.status, 200);
      assert.deepEqual(v1.body, []);
      const accounts = await s.request("/api/v1/admin/accounts", { token });
      assert.equal(accounts.status, 200);
      assert.ok(Array.isArray(accounts.body));
    });
  });
});
