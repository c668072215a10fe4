import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { Browser, decodeEntities, inputValue, submitSignIn } from "./oauth-browser.ts";

const CSRF_ERROR = "Can't verify CSRF token authenticity.";

/** The page's `<meta name="csrf-token">`, as a script would read it. */
function metaCsrf(page: string): string | undefined {
  const m = /<meta name="csrf-token" content="([^"]*)">/.exec(page);
  return m ? decodeEntities(m[1]) : undefined;
}

/** Signs `user` in through the real sign-in page; answers the browser and the CSRF token its pages show. */
async function signedIn(s: TestServer, user: TestUser): Promise<{ b: Browser; csrf: string }> {
  const b = new Browser(s);
  const form = await b.request("/auth/sign_in");
  assert.equal(form.status, 200);
  const done = await submitSignIn(b, form.body, user);
  assert.equal(done.status, 302, done.body);
  const page = await b.request("/auth/sign_in");
  assert.equal(page.status, 200);
  assert.match(page.body, new RegExp(`@?${user.account.username}`));
  const csrf = metaCsrf(page.body);
  assert.ok(csrf, "the signed-in page has no csrf-token meta tag");
  return { b, csrf };
}

describe("Admin API through a signed-in browser session", () => {
  let s: TestServer;
  let staff: TestUser;
  let plain: TestUser;
  let staffBrowser: { b: Browser; csrf: string };

  const roleNames = async () => (await s.ctx.repos.roles.all()).map((r) => r.name).sort();

  before(async () => {
    s = await startTestServer({});
    staff = await s.createUser("stella", { role: "Admin", scopes: "read write admin:read admin:write" });
    plain = await s.createUser("pete");
    staffBrowser = await signedIn(s, staff);
  });
  after(() => s.close());

  it("puts the session's CSRF token in a meta tag of each page, the one its forms carry", async () => {
    const b = new Browser(s);
    const page = await b.request("/auth/sign_in");
    const meta = metaCsrf(page.body);
    assert.ok(meta);
    assert.equal(meta, inputValue(page.body, "authenticity_token"));
    assert.match(page.body, /<meta name="csrf-param" content="authenticity_token">/);
    // Signing in starts a new session: a new token.
    assert.notEqual(staffBrowser.csrf, meta);
    // Any page, as Mastodon's layout; a visitor without a session gets none.
    const profile = await staffBrowser.b.request(`/@${plain.account.username}`);
    assert.equal(profile.status, 200);
    assert.equal(metaCsrf(profile.body), staffBrowser.csrf);
    const bare = await s.request<string>(`/@${plain.account.username}`);
    assert.equal(bare.status, 200);
    assert.match(bare.body, /^<!DOCTYPE html>/);
    assert.equal(metaCsrf(bare.body), undefined);
  });

  it("lets a staff session read admin endpoints without a CSRF token", async () => {
    const { b } = staffBrowser;
    const roles = await b.request("/api/v1/admin/roles");
    assert.equal(roles.status, 200, roles.body);
    assert.ok(Array.isArray(roles.body));
    const log = await b.request("/api/v1/admin/action_logs");
    assert.equal(log.status, 200, log.body);
  });

  it("accepts a write with the session's X-CSRF-Token, and logs it as the staff member", async () => {
    const { b, csrf } = staffBrowser;
    const r = await b.request("/api/v1/admin/roles", {
      method: "POST",
      form: { name: "Session made", position: "7" },
      headers: { "x-csrf-token": csrf },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((r.body as unknown as { name: string }).name, "Session made");
    const [entry] = await s.ctx.repos.adminActionLogs.page({ targetType: "UserRole" }, { limit: 1 });
    assert.equal(entry.action, "create");
    assert.equal(entry.accountId, staff.account.id);
    assert.equal(entry.summary, "@stella created the role Session made");
  });

  it("refuses a write without the token or with a wrong one with 422, changing nothing", async () => {
    const { b, csrf } = staffBrowser;
    const before = await roleNames();
    const other = new Browser(s);
    const anonymousToken = metaCsrf((await other.request("/auth/sign_in")).body);
    assert.ok(anonymousToken);
    const attempts: [string, string, Record<string, string>][] = [
      ["POST", "/api/v1/admin/roles", {}],
      ["POST", "/api/v1/admin/roles", { "x-csrf-token": "" }],
      ["POST", "/api/v1/admin/roles", { "x-csrf-token": `${csrf}x` }],
      ["POST", "/api/v1/admin/roles", { "x-csrf-token": anonymousToken }],
      ["PUT", "/api/v1/admin/roles/1", {}],
      ["DELETE", "/api/v1/admin/roles/1", { "x-csrf-token": "nope" }],
    ];
    for (const [method, path, headers] of attempts) {
      const r = await b.request(path, { method, form: { name: "Forged" }, headers });
      assert.equal(r.status, 422, `${method} ${path} ${JSON.stringify(headers)}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(r.body, { error: CSRF_ERROR });
    }
    // The form field a page's own forms use does not stand in for the header.
    const field = await b.request("/api/v1/admin/roles", {
      method: "POST",
      form: { name: "Forged", authenticity_token: csrf },
    });
    assert.equal(field.status, 422);
    assert.deepEqual(await roleNames(), before);
    assert.equal((await s.ctx.repos.roles.getById("1"))?.name, "Moderator");
  });

  it("refuses a non-staff session with 403, and no session at all with 401", async () => {
    const { b, csrf } = await signedIn(s, plain);
    assert.equal((await b.request("/api/v1/admin/roles")).status, 403);
    const before = await roleNames();
    const w = await b.request("/api/v1/admin/roles", {
      method: "POST",
      form: { name: "Not staff" },
      headers: { "x-csrf-token": csrf },
    });
    assert.equal(w.status, 403);
    assert.deepEqual(await roleNames(), before);
    assert.equal((await new Browser(s).request("/api/v1/admin/roles")).status, 401);
  });

  it("needs no CSRF token with a bearer token", async () => {
    const r = await s.request("/api/v1/admin/roles", {
      method: "POST",
      token: staff.token,
      json: { name: "Token made", position: 6 },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok((await roleNames()).includes("Token made"));
  });
});
