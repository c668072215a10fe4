import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EVERYONE_ROLE_ID, Permission as P } from "../../src/lib/roles.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

describe("Admin API: roles (a Gannet extension)", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;
  let readOnly: TestUser;

  const req = (u: TestUser | undefined, path: string, method = "GET", json?: Record<string, unknown>) =>
    s.request(path, { method, token: u?.token, json: json ?? (method === "GET" ? undefined : {}) });

  /** The newest action log entries about `targetType`. */
  const logged = (targetType: string) => s.ctx.repos.adminActionLogs.page({ targetType }, { limit: 20 });
  const roleCount = async () => (await s.ctx.repos.roles.all()).length;

  before(async () => {
    s = await startTestServer({});
    owner = await s.createUser("olga", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adam", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mona", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pat", { scopes: ADMIN_SCOPES });
    readOnly = await s.createUser("ray", { role: "Admin", scopes: "read admin:read" });
  });
  after(() => s.close());

  it("lists every role with its position and permissions as a decimal string", async () => {
    const r = await req(admin, "/api/v1/admin/roles");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const byName = new Map(r.body.map((x: { name: string }) => [x.name, x]));
    assert.deepEqual(byName.get("everyone"), {
      id: EVERYONE_ROLE_ID,
      name: "everyone",
      permissions: String(P.inviteUsers),
      color: "",
      highlighted: false,
      position: -1,
    });
    assert.equal((byName.get("Owner") as { permissions: string }).permissions, "1");
    assert.equal((byName.get("Admin") as { position: number }).position, 100);
    assert.deepEqual(
      r.body.map((x: { position: number }) => x.position),
      [...r.body.map((x: { position: number }) => x.position)].sort((a, b) => a - b),
    );
    const one = await req(admin, "/api/v1/admin/roles/1");
    assert.equal(one.status, 200);
    assert.equal(one.body.name, "Moderator");
    assert.equal((await req(admin, "/api/v1/admin/roles/987654")).status, 404);
    assert.equal((await req(admin, "/api/v1/admin/roles/nope")).status, 404);
  });

  it("needs Manage Roles and an admin scope", async () => {
    assert.equal((await req(undefined, "/api/v1/admin/roles")).status, 401);
    assert.equal((await req(moderator, "/api/v1/admin/roles")).status, 403);
    assert.equal((await req(plain, "/api/v1/admin/roles")).status, 403);
    assert.equal((await req(readOnly, "/api/v1/admin/roles")).status, 200);
    const before = await roleCount();
    const w = await req(readOnly, "/api/v1/admin/roles", "POST", { name: "Sneaky" });
    assert.equal(w.status, 403);
    const m = await req(moderator, "/api/v1/admin/roles", "POST", { name: "Sneaky" });
    assert.equal(m.status, 403);
    assert.equal(await roleCount(), before);
  });

  it("creates a role below the caller's, and logs it", async () => {
    const r = await req(admin, "/api/v1/admin/roles", "POST", {
      name: "Helper",
      color: "#ff8800",
      position: 50,
      permissions: String(P.manageReports | P.manageUsers),
      highlighted: true,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.name, "Helper");
    assert.equal(r.body.color, "#ff8800");
    assert.equal(r.body.position, 50);
    assert.equal(r.body.permissions, String(P.manageReports | P.manageUsers));
    assert.equal(r.body.highlighted, true);
    const [entry] = await logged("UserRole");
    assert.equal(entry.action, "create");
    assert.equal(entry.targetId, r.body.id);
    assert.equal(entry.accountId, admin.account.id);
    assert.equal(entry.summary, "@adam created the role Helper");
    // Form parameters and a number work too.
    const f = await s.request("/api/v1/admin/roles", {
      method: "POST",
      token: admin.token,
      form: { name: "Formed", permissions: "0", position: "3" },
    });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    assert.equal(f.body.permissions, "0");
  });

  it("refuses a role at or above the caller's, a permission the caller lacks, and bad input, creating nothing", async () => {
    const before = await roleCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: "Equal", position: 100 }, /Position/],
      [{ name: "Above", position: 5000 }, /Position/],
      [{ name: "Boss", position: 1, permissions: String(P.administrator) }, /Permissions/],
      [{ name: "" }, /Name/],
      [{}, /name/],
      [{ name: "moderator" }, /taken/],
      [{ name: "Colorful", color: "orange" }, /Color/],
      [{ name: "Bits", permissions: "lots" }, /permissions/],
      [{ name: "Bits", permissions: String(1 << 22) }, /permissions/],
      [{ name: "Bits", permissions: "-1" }, /permissions/],
      [{ name: "Far", position: 2 ** 40 }, /Position/],
    ];
    for (const [body, message] of cases) {
      const r = await req(admin, "/api/v1/admin/roles", "POST", body);
      assert.equal(r.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.error, message, JSON.stringify(body));
    }
    assert.equal(await roleCount(), before);
    // The Owner holds every permission and may grant administrator, below itself.
    const boss = await req(owner, "/api/v1/admin/roles", "POST", {
      name: "Deputy",
      position: 500,
      permissions: String(P.administrator),
    });
    assert.equal(boss.status, 200, JSON.stringify(boss.body));
    assert.equal((await req(owner, "/api/v1/admin/roles", "POST", { name: "Peer", position: 1000 })).status, 422);
  });

  it("changes roles below the caller's; of its own role only the name, color and badge", async () => {
    const helper = (await s.ctx.repos.roles.getByName("Helper"))!;
    const r = await req(admin, `/api/v1/admin/roles/${helper.id}`, "PUT", {
      name: "Helpers",
      permissions: String(P.manageReports),
      color: "",
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.name, "Helpers");
    assert.equal(r.body.permissions, String(P.manageReports));
    assert.equal(r.body.position, 50);
    const [entry] = await logged("UserRole");
    assert.equal(entry.action, "update");
    assert.equal(entry.summary, "@adam changed the role Helpers");

    const refused: [string, TestUser, Record<string, unknown>, number][] = [
      ["3", admin, { name: "Boss" }, 403], // the Owner role is above the Admin's
      [helper.id, admin, { position: 100 }, 422],
      [helper.id, admin, { permissions: String(P.administrator) }, 422],
      [helper.id, moderator, { name: "X" }, 403],
      ["2", admin, { position: 99 }, 422], // its own role
      ["2", admin, { permissions: String(P.manageUsers) }, 422],
      ["3", owner, { permissions: "0" }, 422], // the Owner keeps administrator
      ["3", owner, { position: 2000 }, 422],
      [EVERYONE_ROLE_ID, admin, { name: "all" }, 422],
      [EVERYONE_ROLE_ID, admin, { position: 5 }, 422],
      [EVERYONE_ROLE_ID, admin, { permissions: String(P.inviteUsers | P.manageUsers) }, 422],
      [helper.id, admin, { name: "owner" }, 422],
      ["987654", admin, { name: "Ghost" }, 404],
    ];
    const before = JSON.stringify(await s.ctx.repos.roles.all());
    for (const [id, who, body, status] of refused) {
      const x = await req(who, `/api/v1/admin/roles/${id}`, "PUT", body);
      assert.equal(x.status, status, `${id} ${JSON.stringify(body)}: ${JSON.stringify(x.body)}`);
    }
    assert.equal(JSON.stringify(await s.ctx.repos.roles.all()), before);

    const own = await req(admin, "/api/v1/admin/roles/2", "PUT", { name: "Admins", color: "#123", highlighted: false });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.name, "Admins");
    assert.equal(own.body.permissions, String(0x1ffffe));
    const ownerOwn = await req(owner, "/api/v1/admin/roles/3", "PUT", {
      name: "Owners",
      permissions: String(P.administrator | P.manageUsers),
    });
    assert.equal(ownerOwn.status, 200, JSON.stringify(ownerOwn.body));
    assert.equal(ownerOwn.body.permissions, String(P.administrator | P.manageUsers));
    // The everyone role's permissions may change within what Mastodon allows it.
    const everyone = await req(admin, `/api/v1/admin/roles/${EVERYONE_ROLE_ID}`, "PUT", { permissions: "0" });
    assert.equal(everyone.status, 200, JSON.stringify(everyone.body));
    assert.equal(
      (await req(admin, `/api/v1/admin/roles/${EVERYONE_ROLE_ID}`, "PUT", { permissions: String(P.inviteUsers) }))
        .status,
      200,
    );
  });

  it("deletes a role below the caller's: its members go back to the everyone role", async () => {
    const formed = (await s.ctx.repos.roles.getByName("Formed"))!;
    const member = await s.createUser("fern", { role: "Formed" });
    const refused: [string, TestUser, number][] = [
      ["3", admin, 403],
      ["2", admin, 403],
      ["3", owner, 403], // its own role
      [EVERYONE_ROLE_ID, owner, 422],
      [formed.id, moderator, 403],
      ["987654", admin, 404],
    ];
    for (const [id, who, status] of refused) {
      assert.equal((await req(who, `/api/v1/admin/roles/${id}`, "DELETE")).status, status, id);
    }
    assert.ok(await s.ctx.repos.roles.getById("3"));
    const r = await req(admin, `/api/v1/admin/roles/${formed.id}`, "DELETE");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, {});
    assert.equal(await s.ctx.repos.roles.getById(formed.id), undefined);
    assert.equal((await s.ctx.repos.users.getById(member.user.id))?.roleId, EVERYONE_ROLE_ID);
    const [entry] = await logged("UserRole");
    assert.equal(entry.action, "destroy");
    assert.equal(entry.targetId, formed.id);
    assert.equal(entry.humanIdentifier, "Formed");
    assert.equal((await req(admin, `/api/v1/admin/roles/${formed.id}`)).status, 404);
  });

  it("assigns a role below the caller's to an account below it, answering Admin::Account", async () => {
    const newbie = await s.createUser("nina", { scopes: ADMIN_SCOPES });
    assert.equal((await req(newbie, "/api/v1/admin/reports")).status, 403);
    const r = await req(admin, `/api/v1/admin/accounts/${newbie.account.id}/role`, "POST", { role_id: "1" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.id, newbie.account.id);
    assert.equal(r.body.username, "nina");
    assert.equal(r.body.role.name, "Moderator");
    assert.equal(r.body.role.id, "1");
    assert.equal(r.body.account.id, newbie.account.id);
    // The new role takes effect at once.
    assert.equal((await req(newbie, "/api/v1/admin/reports")).status, 200);
    const [entry] = await logged("User");
    assert.equal(entry.action, "change_role");
    assert.equal(entry.targetId, newbie.user.id);
    assert.equal(entry.summary, "@adam gave @nina the role Moderator");

    const refused: [string, TestUser, Record<string, unknown>, number][] = [
      [newbie.account.id, admin, { role_id: "2" }, 422], // the caller's own role
      [newbie.account.id, admin, { role_id: "3" }, 422],
      [newbie.account.id, admin, { role_id: "987654" }, 422],
      [newbie.account.id, admin, {}, 422],
      [owner.account.id, admin, { role_id: "1" }, 403], // the Owner ranks above
      [admin.account.id, admin, { role_id: "1" }, 403], // its own account
      [newbie.account.id, moderator, { role_id: "" }, 403],
      [newbie.account.id, plain, { role_id: "" }, 403],
      ["987654", admin, { role_id: "1" }, 404],
    ];
    for (const [id, who, body, status] of refused) {
      const x = await req(who, `/api/v1/admin/accounts/${id}/role`, "POST", body);
      assert.equal(x.status, status, `${id} ${JSON.stringify(body)}: ${JSON.stringify(x.body)}`);
    }
    assert.equal((await s.ctx.repos.users.getById(newbie.user.id))?.roleId, "1");
    assert.equal((await s.ctx.repos.users.getById(owner.user.id))?.roleId, "3");

    // An empty role_id takes the role away.
    const back = await req(admin, `/api/v1/admin/accounts/${newbie.account.id}/role`, "POST", { role_id: "" });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.role.id, EVERYONE_ROLE_ID);
    assert.equal((await s.ctx.repos.users.getById(newbie.user.id))?.roleId, EVERYONE_ROLE_ID);
    assert.equal((await req(newbie, "/api/v1/admin/reports")).status, 403);
    const [removed] = await logged("User");
    assert.equal(removed.summary, "@adam removed the role of @nina");
  });
});
