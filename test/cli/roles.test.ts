import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AppContext } from "../../src/context.ts";
import { EVERYONE_ROLE_ID, Permission } from "../../src/db/repositories/roles.ts";
import { PERMISSION_NAMES, parsePermissions, permissionNames } from "../../src/services/admin/roles.ts";
import { RoleCache } from "../../src/services/roles/role-cache.ts";
import {
  createInstance,
  gannet,
  gannetOk,
  getJson,
  type Instance,
  type ServerProcess,
  startServer,
} from "./harness.ts";

const P = Permission;

describe("role permission names", () => {
  it("are the snake_case of Mastodon's permission keys, in bit order", () => {
    assert.equal(PERMISSION_NAMES.length, Object.keys(Permission).length);
    assert.deepEqual(PERMISSION_NAMES.slice(0, 4), ["administrator", "devops", "view_audit_log", "view_dashboard"]);
    assert.ok(PERMISSION_NAMES.includes("manage_custom_emojis"));
    assert.equal(PERMISSION_NAMES.at(-1), "view_feeds");
  });

  it("turn into bits and back", () => {
    assert.deepEqual(parsePermissions("manage_users,manage_reports"), { bits: P.manageUsers | P.manageReports });
    assert.deepEqual(parsePermissions(" Manage_Users , ,view_feeds,"), { bits: P.manageUsers | P.viewFeeds });
    assert.deepEqual(parsePermissions(""), { bits: 0 });
    assert.deepEqual(parsePermissions("manage_users,manage_user,root"), { unknown: ["manage_user", "root"] });
    assert.deepEqual(permissionNames(P.manageUsers | P.manageReports), ["manage_reports", "manage_users"]);
    assert.deepEqual(permissionNames(P.administrator), ["administrator"]);
    assert.deepEqual(permissionNames(0), []);
    // A bit Gannet has no name for is shown, not hidden.
    assert.deepEqual(permissionNames(P.devops | 0x400000), ["devops", "0x400000"]);
    for (const name of PERMISSION_NAMES) {
      const parsed = parsePermissions(name);
      assert.ok("bits" in parsed, name);
      assert.deepEqual(permissionNames(parsed.bits), [name]);
    }
  });
});

/** `gannet roles ...` run as a real process; the database is then read back directly. */
describe("gannet roles", () => {
  let inst: Instance;
  let ctx: AppContext;
  before(async () => {
    inst = await createInstance({ REGISTRATIONS_MODE: "approved" });
    await gannetOk(inst, "roles", "list"); // creates the schema before this process opens it
    ctx = await inst.openContext();
  });
  after(async () => {
    await ctx.close();
    await inst.cleanup();
  });

  const rows = (stdout: string) =>
    stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));

  async function listed(name: string): Promise<string[] | undefined> {
    return rows(await gannetOk(inst, "roles", "list")).find((r) => r[1] === name);
  }

  async function role(name: string) {
    const r = await ctx.repos.roles.getByName(name);
    assert.ok(r, `no role ${name}`);
    return r;
  }

  /** A failure: exit 1, nothing on stdout, one `gannet: ...` line on stderr. */
  function assertFailure(r: { code: number; stdout: string; stderr: string }, message: RegExp, what: string) {
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.equal(r.stdout, "", what);
    assert.match(r.stderr, /^gannet: /, what);
    assert.match(r.stderr, message, what);
    assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  }

  describe("list", () => {
    it("prints a header and the four seeded roles, lowest position first", async () => {
      const r = await gannet(inst, "roles", "list");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      assert.deepEqual(rows(r.stdout), [
        ["id", "name", "position", "highlighted", "color", "permissions"],
        [EVERYONE_ROLE_ID, "everyone", "-1", "no", "", "invite_users"],
        [
          "1",
          "Moderator",
          "10",
          "yes",
          "",
          "view_audit_log,view_dashboard,manage_reports,manage_appeals,manage_users,manage_invites,invite_users",
        ],
        ["2", "Admin", "100", "yes", "", PERMISSION_NAMES.slice(1).join(",")],
        ["3", "Owner", "1000", "yes", "", "administrator"],
      ]);
    });

    it("refuses arguments with exit 2", async () => {
      const r = await gannet(inst, "roles", "list", "all");
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /Usage: gannet roles list/);
    });
  });

  describe("create", () => {
    it("creates a role with the given permissions, position, color and badge", async () => {
      const r = await gannet(
        inst,
        "roles",
        "create",
        "Trust & Safety",
        "--permissions",
        "manage_users,manage_reports",
        "--position",
        "5",
        "--color",
        "#1d9bf0",
        "--highlighted",
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "OK\n");
      assert.equal(r.stderr, "");
      const created = await role("trust & safety");
      assert.equal(created.name, "Trust & Safety");
      assert.equal(created.permissions, P.manageUsers | P.manageReports);
      assert.equal(created.position, 5);
      assert.equal(created.color, "#1d9bf0");
      assert.equal(created.highlighted, true);
      assert.match(created.id, /^[0-9]{15,}$/, "a generated id");
      assert.deepEqual(await listed("Trust & Safety"), [
        created.id,
        "Trust & Safety",
        "5",
        "yes",
        "#1d9bf0",
        "manage_reports,manage_users",
      ]);
      // Ordered by position: between everyone (-1) and Moderator (10).
      const names = rows(await gannetOk(inst, "roles", "list")).map((l) => l[1]);
      assert.deepEqual(names.slice(1, 4), ["everyone", "Trust & Safety", "Moderator"]);
    });

    it("gives a role no permissions, position 0, no color and no badge by default", async () => {
      assert.equal(await gannetOk(inst, "roles", "create", "Helpers"), "OK\n");
      const helpers = await role("Helpers");
      assert.deepEqual(
        { permissions: helpers.permissions, position: helpers.position, color: helpers.color, hl: helpers.highlighted },
        { permissions: 0, position: 0, color: "", hl: false },
      );
      assert.deepEqual((await listed("Helpers"))?.slice(2), ["0", "no", "", ""]);
      assert.equal(await gannetOk(inst, "roles", "create", "Below", "--position=-5", "--permissions", ""), "OK\n");
      assert.equal((await role("Below")).position, -5);
    });

    it("grants administrator only with --allow-administrator", async () => {
      const refused = await gannet(inst, "roles", "create", "Root", "--permissions", "manage_users,administrator");
      assert.equal(refused.code, 2);
      assert.equal(refused.stdout, "");
      assert.match(refused.stderr, /administrator .*needs --allow-administrator/);
      assert.equal(await ctx.repos.roles.getByName("Root"), undefined);
      const r = await gannet(
        inst,
        "roles",
        "create",
        "Root",
        "--permissions",
        "administrator",
        "--allow-administrator",
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await role("Root")).permissions, P.administrator);
      assert.equal((await listed("Root"))?.[5], "administrator");
    });

    it("refuses a taken name, whatever its case, with exit 1", async () => {
      for (const name of ["helpers", "MODERATOR", "Everyone", "owner"]) {
        assertFailure(await gannet(inst, "roles", "create", name), /Name has already been taken/, name);
      }
      assert.equal((await ctx.repos.roles.all()).length, 8);
    });

    it("answers unknown permissions with the valid names, a usage message and exit 2", async () => {
      const r = await gannet(inst, "roles", "create", "Typo", "--permissions", "manage_users,manage_user,ban");
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^gannet: unknown permissions: manage_user, ban \(valid: administrator, devops, /);
      assert.match(r.stderr, /manage_roles, manage_user_access, delete_user_data, view_feeds\)/);
      assert.match(r.stderr, /Usage: gannet roles create NAME/);
      assert.equal(await ctx.repos.roles.getByName("Typo"), undefined);
    });

    it("answers other bad arguments with a usage message and exit 2", async () => {
      const cases: [string[], RegExp][] = [
        [[], /missing NAME/],
        [["A", "B"], /unexpected argument "B"/],
        [[""], /NAME must not be empty/],
        [["   "], /NAME must not be blank/],
        [[" Padded"], /NAME must not start or end with spaces/],
        [["Tab\tbed"], /control characters/],
        [["X", "--position", "high"], /--position needs an integer/],
        [["X", "--position", "1.5"], /--position needs an integer/],
        [["X", "--position", "99999999999"], /--position needs an integer/],
        [["X", "--position"], /argument missing/],
        [["X", "--color", "blue"], /--color needs #rrggbb/],
        [["X", "--color", "#12345"], /--color needs #rrggbb/],
        [["X", "--highlighted=yes"], /does not take an argument/],
        [["X", "--admin"], /Unknown option '--admin'/],
        [["X", "--name", "Y"], /Unknown option '--name'/],
      ];
      await Promise.all(
        cases.map(async ([args, message]) => {
          const r = await gannet(inst, "roles", "create", ...args);
          assert.equal(r.code, 2, `${JSON.stringify(args)}: ${r.stderr}`);
          assert.equal(r.stdout, "");
          assert.match(r.stderr, message, JSON.stringify(args));
          assert.match(r.stderr, /Usage: gannet roles create NAME/);
        }),
      );
      assert.equal((await ctx.repos.roles.all()).length, 8);
    });
  });

  describe("modify", () => {
    it("renames a role, its members keeping it", async () => {
      await gannetOk(inst, "accounts", "create", "tessa", "--email", "tessa@example.com", "--role", "Helpers");
      const before = await role("Helpers");
      assert.equal(await gannetOk(inst, "roles", "modify", "helpers", "--name", "Volunteers"), "OK\n");
      assert.equal(await ctx.repos.roles.getByName("Helpers"), undefined);
      const after = await role("Volunteers");
      assert.equal(after.id, before.id);
      const account = await ctx.repos.accounts.getByUsername("tessa", null);
      assert.equal((await ctx.repos.users.getByAccountId(account!.id))?.roleId, before.id);
      assert.match(await gannetOk(inst, "accounts", "list"), /^tessa\ttessa@example.com\tVolunteers\t/m);
      // A change of case only is a rename too.
      assert.equal(await gannetOk(inst, "roles", "modify", "Volunteers", "--name", "volunteers"), "OK\n");
      assert.equal((await role("VOLUNTEERS")).name, "volunteers");
    });

    it("replaces, adds and removes permissions", async () => {
      await gannetOk(inst, "roles", "modify", "volunteers", "--permissions", "manage_reports,view_dashboard");
      assert.equal((await role("volunteers")).permissions, P.manageReports | P.viewDashboard);
      await gannetOk(inst, "roles", "modify", "volunteers", "--add-permission", "manage_users,manage_appeals");
      await gannetOk(inst, "roles", "modify", "volunteers", "--add-permission", "manage_rules");
      assert.equal(
        (await role("volunteers")).permissions,
        P.manageReports | P.viewDashboard | P.manageUsers | P.manageAppeals | P.manageRules,
      );
      await gannetOk(
        inst,
        "roles",
        "modify",
        "volunteers",
        "--remove-permission",
        "view_dashboard",
        "--remove-permission",
        "manage_appeals",
        "--remove-permission",
        "manage_webhooks",
      );
      assert.equal((await role("volunteers")).permissions, P.manageReports | P.manageUsers | P.manageRules);
      await gannetOk(
        inst,
        "roles",
        "modify",
        "volunteers",
        "--permissions",
        "manage_users",
        "--add-permission",
        "view_feeds",
        "--remove-permission",
        "manage_users",
      );
      assert.equal((await role("volunteers")).permissions, P.viewFeeds);
      assert.equal((await listed("volunteers"))?.[5], "view_feeds");
      await gannetOk(inst, "roles", "modify", "volunteers", "--permissions", "");
      assert.equal((await role("volunteers")).permissions, 0);
    });

    it("changes the position, color and badge, and leaves the rest alone", async () => {
      const before = await role("volunteers");
      await gannetOk(inst, "roles", "modify", "volunteers", "--position", "20", "--color", "#abc", "--highlighted");
      let after = await role("volunteers");
      assert.deepEqual(
        { ...after, position: 20, color: "#abc", highlighted: true },
        { ...before, position: 20, color: "#abc", highlighted: true },
      );
      assert.deepEqual(await listed("volunteers"), [before.id, "volunteers", "20", "yes", "#abc", ""]);
      await gannetOk(inst, "roles", "modify", "volunteers", "--not-highlighted", "--color", "");
      after = await role("volunteers");
      assert.equal(after.highlighted, false);
      assert.equal(after.color, "");
      assert.equal(after.position, 20);
      // Nothing asked: nothing changes, as with accounts modify.
      assert.equal(await gannetOk(inst, "roles", "modify", "volunteers"), "OK\n");
      assert.deepEqual(await role("volunteers"), after);
    });

    it("grants administrator only with --allow-administrator", async () => {
      const refused = await gannet(inst, "roles", "modify", "volunteers", "--add-permission", "administrator");
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /needs --allow-administrator/);
      assert.equal((await role("volunteers")).permissions, 0);
      await gannetOk(
        inst,
        "roles",
        "modify",
        "volunteers",
        "--add-permission",
        "administrator",
        "--allow-administrator",
      );
      assert.equal((await role("volunteers")).permissions, P.administrator);
      // Taking it away needs no flag.
      await gannetOk(inst, "roles", "modify", "volunteers", "--remove-permission", "administrator");
      assert.equal((await role("volunteers")).permissions, 0);
    });

    it("changes the everyone role's permissions but not its name or position", async () => {
      await gannetOk(inst, "roles", "modify", "everyone", "--add-permission", "view_feeds");
      assert.equal((await role("everyone")).permissions, P.inviteUsers | P.viewFeeds);
      await gannetOk(inst, "roles", "modify", "everyone", "--remove-permission", "view_feeds");
      assert.equal((await role("everyone")).permissions, P.inviteUsers);
      assertFailure(
        await gannet(inst, "roles", "modify", "everyone", "--name", "all"),
        /everyone role cannot be renamed/,
        "rename",
      );
      assertFailure(
        await gannet(inst, "roles", "modify", "everyone", "--position", "3"),
        /everyone role cannot be moved/,
        "move",
      );
      const everyone = await role("everyone");
      assert.equal(everyone.id, EVERYONE_ROLE_ID);
      assert.equal(everyone.position, -1);
    });

    it("fails with exit 1 for an unknown role or a taken name", async () => {
      const unknown = await gannet(inst, "roles", "modify", "Emperor", "--position", "3");
      assertFailure(unknown, /^gannet: no role named Emperor \(roles: .*everyone, .*Owner\)$/m, "unknown");
      assertFailure(
        await gannet(inst, "roles", "modify", "volunteers", "--name", "admin"),
        /Name has already been taken/,
        "taken",
      );
      assert.equal((await role("volunteers")).name, "volunteers");
    });

    it("answers bad arguments with a usage message and exit 2", async () => {
      const cases: [string[], RegExp][] = [
        [[], /missing NAME/],
        [["volunteers", "--highlighted", "--not-highlighted"], /cannot go together/],
        [["volunteers", "--add-permission", "manage_users", "--remove-permission", "manage_users"], /both add/],
        [["volunteers", "--add-permission", "juggling"], /unknown permission: juggling \(valid: administrator/],
        [["volunteers", "--remove-permission", "juggling"], /unknown permission: juggling/],
        [["volunteers", "--permissions", "manage_users,juggling"], /unknown permission: juggling/],
        [["volunteers", "--permissions", "administrator"], /needs --allow-administrator/],
        [["volunteers", "--name", ""], /--name must not be blank/],
        [["volunteers", "--name", "line\nbreak"], /control characters/],
        [["volunteers", "--position", "top"], /--position needs an integer/],
        [["volunteers", "--color", "red"], /--color needs #rrggbb/],
        [["volunteers", "--delete"], /Unknown option '--delete'/],
      ];
      await Promise.all(
        cases.map(async ([args, message]) => {
          const r = await gannet(inst, "roles", "modify", ...args);
          assert.equal(r.code, 2, `${JSON.stringify(args)}: ${r.stderr}`);
          assert.equal(r.stdout, "");
          assert.match(r.stderr, message, JSON.stringify(args));
          assert.match(r.stderr, /Usage: gannet roles modify NAME/);
        }),
      );
      const v = await role("volunteers");
      assert.equal(v.permissions, 0);
      assert.equal(v.highlighted, false);
    });
  });

  describe("delete", () => {
    it("refuses the everyone and Owner roles with exit 1", async () => {
      assertFailure(await gannet(inst, "roles", "delete", "everyone"), /everyone role cannot be deleted/, "everyone");
      assertFailure(await gannet(inst, "roles", "delete", "OWNER"), /Owner role cannot be deleted/, "Owner");
      // Renamed, the Owner role is still the Owner role.
      await gannetOk(inst, "roles", "modify", "Owner", "--name", "Proprietor");
      assertFailure(
        await gannet(inst, "roles", "delete", "Proprietor"),
        /Proprietor role cannot be deleted/,
        "renamed",
      );
      await gannetOk(inst, "roles", "modify", "Proprietor", "--name", "Owner");
      assert.equal((await role("everyone")).id, EVERYONE_ROLE_ID);
      assert.equal((await role("Owner")).permissions, P.administrator);
    });

    it("fails with exit 1 for an unknown role", async () => {
      assertFailure(await gannet(inst, "roles", "delete", "Emperor"), /no role named Emperor/, "unknown");
    });

    it("deletes a role and puts its members back in the everyone role", async () => {
      await gannetOk(inst, "accounts", "create", "ursula", "--email", "ursula@example.com", "--role", "volunteers");
      await gannetOk(inst, "accounts", "create", "victor", "--email", "victor@example.com", "--role", "Moderator");
      const doomed = await role("volunteers");
      const r = await gannet(inst, "roles", "delete", "Volunteers");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "OK\n");
      assert.match(r.stderr, /2 accounts went back to the everyone role/);
      assert.equal(await ctx.repos.roles.getById(doomed.id), undefined);
      assert.equal(await listed("volunteers"), undefined);
      for (const [username, roleId] of [
        ["tessa", EVERYONE_ROLE_ID],
        ["ursula", EVERYONE_ROLE_ID],
        ["victor", "1"],
      ]) {
        const account = await ctx.repos.accounts.getByUsername(username, null);
        assert.equal((await ctx.repos.users.getByAccountId(account!.id))?.roleId, roleId, username);
      }
      const accounts = rows(await gannetOk(inst, "accounts", "list"));
      assert.deepEqual(
        accounts.filter((a) => ["tessa", "ursula", "victor"].includes(a[0])).map((a) => [a[0], a[2]]),
        [
          ["tessa", "everyone"],
          ["ursula", "everyone"],
          ["victor", "Moderator"],
        ],
      );
      // The name is free again.
      assert.equal(await gannetOk(inst, "roles", "create", "Volunteers"), "OK\n");
      const again = await gannet(inst, "roles", "delete", "Volunteers");
      assert.equal(again.code, 0);
      assert.equal(again.stderr, "", "no note when nobody held the role");
    });

    it("needs exactly one name", async () => {
      for (const args of [[], ["Helpers", "Admin"]]) {
        const r = await gannet(inst, "roles", "delete", ...args);
        assert.equal(r.code, 2);
        assert.equal(r.stdout, "");
        assert.match(r.stderr, /Usage: gannet roles delete NAME/);
      }
      assert.ok(await ctx.repos.roles.getByName("Admin"));
    });
  });

  describe("help", () => {
    it("documents the roles commands and every permission name", async () => {
      const top = await gannetOk(inst, "help");
      assert.match(top, /roles create NAME/);
      assert.match(top, /roles delete NAME/);
      const group = await gannet(inst, "roles", "--help");
      assert.equal(group.code, 0);
      assert.match(group.stdout, /gannet roles modify NAME/);
      for (const sub of ["create", "modify"]) {
        const text = await gannetOk(inst, "help", "roles", sub);
        for (const name of PERMISSION_NAMES) assert.match(text, new RegExp(`\\b${name}\\b`), `${sub}: ${name}`);
      }
      assert.match(await gannetOk(inst, "roles", "delete", "--help"), /everyone and Owner/);
      const missing = await gannet(inst, "roles");
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /missing roles subcommand/);
      const unknown = await gannet(inst, "roles", "rename", "a");
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /unknown command "roles rename"/);
    });
  });
});

/** A custom role's permissions as a running server applies them to the admin API. */
describe("custom roles with a running server", () => {
  let inst: Instance;
  let server: ServerProcess;
  const tokens: Record<string, string> = {};
  before(async () => {
    inst = await createInstance({ REGISTRATIONS_MODE: "approved" });
    await gannetOk(inst, "roles", "create", "Userkeeper", "--permissions", "manage_users");
    await gannetOk(inst, "roles", "create", "Reportkeeper", "--permissions", "manage_reports");
    for (const [username, role] of [
      ["keeper", "Userkeeper"],
      ["reporter", "Reportkeeper"],
      ["plain", undefined],
    ] as const) {
      const email = `${username}@example.com`;
      await gannetOk(inst, "accounts", "create", username, "--email", email, "--confirmed", "--approved");
      if (role) assert.equal(await gannetOk(inst, "accounts", "modify", username, "--role", role), "OK\n");
      tokens[username] = (await gannetOk(inst, "tokens", "create", username, "--scopes", "read admin:read")).trim();
    }
    // Started once the roles exist: a server reads roles again only every 10 seconds.
    server = await startServer({ env: inst.env, cwd: inst.dir });
  });
  after(async () => {
    await server?.stop();
    await inst.cleanup();
  });

  const adminAccounts = (username: string) => getJson(`${server.url}/api/v1/admin/accounts`, tokens[username]);
  const adminReports = (username: string) => getJson(`${server.url}/api/v1/admin/reports`, tokens[username]);

  it("lets a custom role's members do what its permissions allow, and nothing else", async () => {
    const keeper = await adminAccounts("keeper");
    assert.equal(keeper.status, 200, JSON.stringify(keeper.body));
    assert.ok(Array.isArray(keeper.body));
    assert.equal((await adminReports("keeper")).status, 403);
    assert.equal((await adminAccounts("reporter")).status, 403);
    assert.equal((await adminReports("reporter")).status, 200);
    const plain = await adminAccounts("plain");
    assert.equal(plain.status, 403);
    assert.deepEqual(plain.body, { error: "This action is not allowed" });
  });

  it("shows the custom role on the member's own account", async () => {
    const me = await getJson(`${server.url}/api/v1/accounts/verify_credentials`, tokens.keeper);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.role.name, "Userkeeper");
    assert.equal(me.body.role.permissions, String(P.manageUsers));
  });

  it("shows the role as the command changed it, at once", async () => {
    assert.equal(await gannetOk(inst, "roles", "modify", "Userkeeper", "--color", "#224466", "--highlighted"), "OK\n");
    const me = await getJson(`${server.url}/api/v1/accounts/verify_credentials`, tokens.keeper);
    assert.equal(me.body.role.color, "#224466");
    assert.equal(me.body.role.highlighted, true);
    assert.deepEqual(
      me.body.roles.map((r: { name: string }) => r.name),
      ["Userkeeper"],
    );
  });

  it("takes the permissions away with the role: its members are back to everyone's", async () => {
    assert.equal(await gannetOk(inst, "roles", "delete", "Userkeeper"), "OK\n");
    // The user row changes at once, so no cache stands in the way.
    const keeper = await adminAccounts("keeper");
    assert.equal(keeper.status, 403);
    const me = await getJson(`${server.url}/api/v1/accounts/verify_credentials`, tokens.keeper);
    assert.equal(me.body.role.id, EVERYONE_ROLE_ID);
  });

  it("applies a modified role's permissions (as read from the database)", async () => {
    await gannetOk(inst, "roles", "modify", "Reportkeeper", "--add-permission", "manage_users");
    const ctx = await inst.openContext();
    try {
      const reporter = await ctx.repos.users.getByAccountId(
        (await ctx.repos.accounts.getByUsername("reporter", null))!.id,
      );
      const cache = new RoleCache(ctx.repos.roles);
      assert.equal(await cache.can(reporter!.roleId, P.manageUsers), true);
      assert.equal(await cache.can(reporter!.roleId, P.manageReports | P.manageUsers), true);
      assert.equal(await cache.can(reporter!.roleId, P.manageFederation), false);
      await gannetOk(inst, "roles", "modify", "Reportkeeper", "--remove-permission", "manage_users");
      cache.invalidate();
      assert.equal(await cache.can(reporter!.roleId, P.manageUsers), false);
    } finally {
      await ctx.close();
    }
  });
});
