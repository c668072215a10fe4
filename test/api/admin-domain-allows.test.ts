import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectEntity } from "../helpers/entity-schemas.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

describe("Admin API: domain allows (limited federation)", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;

  const req = (u: TestUser | undefined, path: string, method = "GET", json?: Record<string, unknown>) =>
    s.request(path, { method, token: u?.token, json: json ?? (method === "GET" ? undefined : {}) });

  before(async () => {
    s = await startTestServer({ LIMITED_FEDERATION_MODE: "true" });
    owner = await s.createUser("own", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adm", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mo", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pat", { scopes: ADMIN_SCOPES });
  });
  after(() => s.close());

  it("creates (an existing allow is answered as it is), shows, lists, deletes; federation follows", async () => {
    assert.equal(await s.ctx.repos.instanceDomainBlocks.isDeliveryAllowed("a.friends.example"), false);
    const r = await req(admin, "/api/v1/admin/domain_allows", "POST", { domain: "Friends.Example" });
    expectEntity(r, "AdminDomainAllow", "POST allow");
    assert.deepEqual(Object.keys(r.body).sort(), ["created_at", "domain", "id"]);
    assert.equal(r.body.domain, "friends.example");
    // In limited-federation mode the domain and its subdomains federate now.
    assert.equal(await s.ctx.repos.instanceDomainBlocks.isDeliveryAllowed("a.friends.example"), true);
    assert.equal(await s.ctx.repos.instanceDomainBlocks.isDeliveryAllowed("strangers.example"), false);

    const again = await req(owner, "/api/v1/admin/domain_allows", "POST", { domain: "friends.example" });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, r.body);

    const other = await req(admin, "/api/v1/admin/domain_allows", "POST", { domain: "pals.example" });
    const page = await req(owner, "/api/v1/admin/domain_allows?limit=1");
    expectEntity(page, ["AdminDomainAllow"], "GET allows");
    assert.deepEqual(page.body, [other.body]);
    assert.match(page.headers.get("link") ?? "", /rel="next"/);
    assert.deepEqual((await req(owner, `/api/v1/admin/domain_allows?max_id=${other.body.id}`)).body, [r.body]);
    assert.deepEqual((await req(admin, `/api/v1/admin/domain_allows/${r.body.id}`)).body, r.body);

    const del = await req(admin, `/api/v1/admin/domain_allows/${r.body.id}`, "DELETE");
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    assert.equal(await s.ctx.repos.instanceDomainBlocks.isDeliveryAllowed("a.friends.example"), false);
    assert.equal((await req(admin, `/api/v1/admin/domain_allows/${r.body.id}`)).status, 404);
    assert.equal((await req(admin, `/api/v1/admin/domain_allows/${r.body.id}`, "DELETE")).status, 404);

    // One create and one destroy logged (the repeated create changed nothing).
    const logs = await s.ctx.repos.adminActionLogs.page({ targetId: r.body.id }, { limit: 10 });
    assert.deepEqual(
      logs.map((e) => [e.action, e.targetType, e.accountId, e.summary]),
      [
        ["destroy", "DomainAllow", admin.account.id, "@adm disallowed federation with domain friends.example"],
        ["create", "DomainAllow", admin.account.id, "@adm allowed federation with domain friends.example"],
      ],
    );
    await req(admin, `/api/v1/admin/domain_allows/${other.body.id}`, "DELETE");
  });

  it("refuses bad input with 422 and changes nothing", async () => {
    for (const json of [{}, { domain: "" }, { domain: "not a domain" }, { domain: "https://x.example/" }]) {
      const r = await req(admin, "/api/v1/admin/domain_allows", "POST", json);
      assert.equal(r.status, 422, JSON.stringify(json));
    }
    assert.deepEqual((await req(admin, "/api/v1/admin/domain_allows")).body, []);
    assert.equal((await req(admin, "/api/v1/admin/domain_allows/nope")).status, 404);
  });

  it("needs Manage Federation and the scope", async () => {
    const a = await req(owner, "/api/v1/admin/domain_allows", "POST", { domain: "perm.example" });
    assert.equal(a.status, 200);
    for (const [u, status] of [
      [moderator, 403],
      [plain, 403],
      [undefined, 401],
    ] as const) {
      assert.equal((await req(u, "/api/v1/admin/domain_allows")).status, status);
      assert.equal((await req(u, `/api/v1/admin/domain_allows/${a.body.id}`)).status, status);
      assert.equal((await req(u, "/api/v1/admin/domain_allows", "POST", { domain: "no.example" })).status, status);
      assert.equal((await req(u, `/api/v1/admin/domain_allows/${a.body.id}`, "DELETE")).status, status);
    }
    const scoped = await s.createUser("scoped", { role: "Admin", scopes: "admin:read:domain_allows" });
    assert.equal((await req(scoped, "/api/v1/admin/domain_allows")).status, 200);
    assert.equal((await req(scoped, "/api/v1/admin/domain_allows", "POST", { domain: "no.example" })).status, 403);
    assert.equal((await req(admin, "/api/v1/admin/domain_allows")).body.length, 1);
  });
});
