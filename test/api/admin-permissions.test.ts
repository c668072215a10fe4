import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EVERYONE_ROLE_ID, Permission } from "../../src/lib/roles.ts";
import { cliApplication, issueToken } from "../../src/services/oauth/tokens.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * The admin permission matrix: every admin endpoint the running server describes in its own
 * /api/openapi.json (built from its route table, so routes added later are covered without
 * touching this file), called by each kind of caller. The expected status follows Mastodon: no
 * token 401; a token without the scope, or a user whose role lacks the permission, 403; anyone
 * else gets past the guards (a 404 for the unknown id, a 422 for the empty body, or a success).
 */

const ALL_ADMIN_SCOPES = "read write admin:read admin:write";
/** No record has this id: nothing is changed by a request that gets through. */
const MISSING_ID = "999999999";

interface AdminOperation {
  method: string;
  /** The OpenAPI path, `{id}` and all. */
  template: string;
  /** The path to call, with MISSING_ID for each parameter. */
  path: string;
  permission: number;
  /** The scopes the description says grant access (any one of them). */
  scopes: string[];
}

interface Caller {
  name: string;
  token?: string;
  /** Null: refused with 403 whatever the permission (no role or no admin scope); otherwise the role's permission bits. */
  permissions: number | null;
}

const P = Permission;

/**
 * The permission Mastodon's policies ask of each admin endpoint (by path; the first match wins).
 * A new admin path must be added here: the matrix then checks its guard against Mastodon's rule
 * rather than against itself.
 */
const MASTODON_PERMISSION: [RegExp, number[]][] = [
  [/^DELETE \/api\/v1\/admin\/accounts\/\{id\}$/, [P.deleteUserData]],
  // An account action is Manage Users (and Manage Reports when it names a report).
  [/^POST \/api\/v1\/admin\/accounts\/\{id\}\/action$/, [P.manageUsers, P.manageUsers | P.manageReports]],
  [/^POST \/api\/v1\/admin\/accounts\/\{id\}\/role$/, [P.manageRoles]],
  [/^\w+ \/api\/v[12]\/admin\/accounts\b/, [P.manageUsers]],
  [/^\w+ \/api\/v1\/admin\/reports\b/, [P.manageReports]],
  [/^\w+ \/api\/v1\/admin\/domain_(blocks|allows)\b/, [P.manageFederation]],
  [/^\w+ \/api\/v1\/admin\/(email_domain_blocks|canonical_email_blocks|ip_blocks)\b/, [P.manageBlocks]],
  // Mastodon's Admin::Trends controllers and PreviewCardProvider/Status/Tag policies: review?.
  [/^\w+ \/api\/v1\/admin\/(trends|tags)\b/, [P.manageTaxonomies]],
  [/^POST \/api\/v1\/admin\/(measures|dimensions|retention)$/, [P.viewDashboard]],
  [/^\w+ \/api\/v1\/admin\/roles\b/, [P.manageRoles]],
  [/^GET \/api\/v1\/admin\/action_logs$/, [P.viewAuditLog]],
];

const grants = (bits: number, permission: number) =>
  (bits & Permission.administrator) !== 0 || (bits & permission) === permission;

describe("Admin API: who may call each endpoint", () => {
  let s: TestServer;
  let ops: AdminOperation[];
  let callers: Caller[];
  let owner: TestUser;

  const call = (op: AdminOperation, token: string | undefined) =>
    s.request(op.path, {
      method: op.method,
      token,
      json: op.method === "GET" || op.method === "HEAD" ? undefined : {},
    });

  async function tokenFor(user: TestUser, scopes: string[]): Promise<string> {
    const app = await cliApplication(s.ctx);
    return (await issueToken(s.ctx, { applicationId: app.id, userId: user.user.id, scopes })).accessToken;
  }

  before(async () => {
    s = await startTestServer({});
    const doc = await s.request("/api/openapi.json");
    assert.equal(doc.status, 200);
    ops = [];
    for (const [template, item] of Object.entries(doc.body.paths as Record<string, Record<string, any>>)) {
      if (!/^\/api\/v\d+\/admin\//.test(template)) continue;
      for (const [method, op] of Object.entries(item)) {
        const permission = op["x-gannet-permission"];
        assert.equal(typeof permission, "number", `${method} ${template} names no permission`);
        const scopes = (op.security as { OAuth2?: string[] }[]).flatMap((x) => x.OAuth2 ?? []);
        ops.push({
          method: method.toUpperCase(),
          template,
          path: template.replace(/\{[^}]+\}/g, MISSING_ID),
          permission,
          scopes,
        });
      }
    }
    const roles = new Map((await s.ctx.repos.roles.all()).map((r) => [r.name, r.permissions]));
    const everyone = (await s.ctx.repos.roles.getById(EVERYONE_ROLE_ID))?.permissions ?? 0;
    const bitsOf = (role: string) => {
      const bits = roles.get(role);
      assert.ok(bits !== undefined, `no seeded role ${role}`);
      return bits | everyone;
    };
    owner = await s.createUser("olive", { role: "Owner", scopes: ALL_ADMIN_SCOPES });
    const admin = await s.createUser("adele", { role: "Admin", scopes: ALL_ADMIN_SCOPES });
    const moderator = await s.createUser("monty", { role: "Moderator", scopes: ALL_ADMIN_SCOPES });
    const nobody = await s.createUser("nora", { scopes: `${ALL_ADMIN_SCOPES} admin:read:accounts` });
    const unscoped = await s.createUser("uma", { role: "Owner", scopes: "read write follow push" });
    callers = [
      { name: "Owner", token: owner.token, permissions: bitsOf("Owner") },
      { name: "Admin", token: admin.token, permissions: bitsOf("Admin") },
      { name: "Moderator", token: moderator.token, permissions: bitsOf("Moderator") },
      { name: "a user with admin scopes and no staff role", token: nobody.token, permissions: null },
      { name: "an Owner whose token has no admin scope", token: unscoped.token, permissions: null },
      { name: "no token", token: undefined, permissions: null },
    ];
  });
  after(() => s.close());

  it("covers every admin endpoint: reports, roles, the action log and the rest", () => {
    const keys = new Set(ops.map((o) => `${o.method} ${o.template}`));
    for (const key of [
      "GET /api/v1/admin/reports",
      "POST /api/v1/admin/reports/{id}/resolve",
      "GET /api/v1/admin/roles",
      "DELETE /api/v1/admin/roles/{id}",
      "POST /api/v1/admin/accounts/{id}/role",
      "GET /api/v1/admin/action_logs",
      "GET /api/v1/admin/accounts",
      "GET /api/v2/admin/accounts",
      "POST /api/v1/admin/domain_blocks",
      "POST /api/v1/admin/measures",
      "GET /api/v1/admin/trends/tags",
      "POST /api/v1/admin/trends/statuses/{id}/approve",
      "POST /api/v1/admin/trends/links/{id}/reject",
      "GET /api/v1/admin/trends/links/publishers",
      "POST /api/v1/admin/trends/links/publishers/{id}/approve",
    ]) {
      assert.ok(keys.has(key), `${key} is not in the matrix`);
    }
    assert.ok(ops.length >= 60, `only ${ops.length} admin operations`);
    // The seeded roles differ where it matters, so the matrix tests both answers.
    const [, adminCaller, moderatorCaller] = callers;
    assert.ok(ops.some((o) => grants(adminCaller.permissions ?? 0, o.permission)));
    assert.ok(ops.some((o) => !grants(moderatorCaller.permissions ?? 0, o.permission)));
  });

  it("guards each endpoint with the permission Mastodon asks for", () => {
    const wrong: string[] = [];
    for (const op of ops) {
      const key = `${op.method} ${op.template}`;
      const expected = MASTODON_PERMISSION.find(([re]) => re.test(key))?.[1];
      if (expected === undefined) wrong.push(`${key}: not in MASTODON_PERMISSION`);
      else if (!expected.includes(op.permission))
        wrong.push(`${key}: ${op.permission}, expected ${expected.join(" or ")}`);
      // Reading needs a read scope, changing a write scope (a POST may only compute: measures, test).
      const side = op.method === "GET" ? "admin:read" : op.method === "POST" ? "admin:" : "admin:write";
      if (!op.scopes.every((x) => x.startsWith(side))) wrong.push(`${key}: scopes ${op.scopes.join(", ")}`);
    }
    assert.deepEqual(wrong, []);
  });

  it("answers each caller as Mastodon would", async () => {
    const wrong: string[] = [];
    for (const op of ops) {
      for (const caller of callers) {
        const r = await call(op, caller.token);
        const where = `${op.method} ${op.template} as ${caller.name}: ${r.status} ${JSON.stringify(r.body)}`;
        if (caller.token === undefined) {
          if (r.status !== 401) wrong.push(`${where} (expected 401)`);
        } else if (caller.permissions === null || !grants(caller.permissions, op.permission)) {
          if (r.status !== 403) wrong.push(`${where} (expected 403)`);
        } else if (r.status === 401 || r.status === 403 || r.status >= 500) {
          wrong.push(`${where} (expected to get past the guards)`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("lets in a token with just the documented scope, and keeps read-only and write-only tokens to their side", async () => {
    const wrong: string[] = [];
    const readOnly = await tokenFor(owner, ["admin:read"]);
    const writeOnly = await tokenFor(owner, ["admin:write"]);
    const byScope = new Map<string, string>();
    for (const op of ops) {
      assert.ok(op.scopes.length > 0, `${op.method} ${op.template} names no scope`);
      for (const scope of op.scopes) {
        let token = byScope.get(scope);
        if (token === undefined) {
          token = await tokenFor(owner, [scope]);
          byScope.set(scope, token);
        }
        const r = await call(op, token);
        if (r.status === 401 || r.status === 403 || r.status >= 500) {
          wrong.push(`${op.method} ${op.template} with only ${scope}: ${r.status}`);
        }
      }
      const isWrite = op.scopes.every((x) => x.startsWith("admin:write"));
      const r = await call(op, isWrite ? readOnly : writeOnly);
      if (r.status !== 403) {
        wrong.push(`${op.method} ${op.template} with only ${isWrite ? "admin:read" : "admin:write"}: ${r.status}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});
