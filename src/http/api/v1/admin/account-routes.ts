import type { Context, Hono } from "hono";
import { Permission } from "../../../../lib/roles.ts";
import {
  type AccountQuery,
  adminAccountJson,
  adminAccountsJson,
  type FilterParams,
  findAdminAccount,
  listAdminAccounts,
  v1Query,
  v2Query,
} from "../../../../services/moderation/accounts.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import { approveAccount, enableAccount, rejectAccount } from "../../../../services/moderation/approval.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

const READ = requireAdmin(Permission.manageUsers, "admin:read:accounts");
const WRITE = requireAdmin(Permission.manageUsers, "admin:write:accounts");

/**
 * The request's parameters as the filters read them: texts and lists of texts. Anything else (a
 * nested hash) is dropped, as Rails' `permit` drops it.
 */
async function filterParams(c: Context<HonoEnv>): Promise<FilterParams> {
  const out: FilterParams = {};
  for (const [k, v] of Object.entries(await readParams(c))) {
    if (Array.isArray(v)) out[k] = v.map(scalar).filter((x): x is string => x !== undefined);
    else out[k] = scalar(v);
  }
  return out;
}

const scalar = (x: unknown): string | undefined =>
  typeof x === "string" || typeof x === "number" || typeof x === "boolean" ? String(x) : undefined;

async function list(c: Context<HonoEnv>, query: AccountQuery) {
  const ctx = c.env.ctx;
  const page = pageParams(c, 100, 200);
  const accounts = await listAdminAccounts(ctx, query, page);
  setLinkHeader(c, page, accounts.length, accounts[0]?.id, accounts.at(-1)?.id);
  return c.json(await adminAccountsJson(ctx, accounts));
}

/** 1.28 Admin API: account listings (v1 and v2), one account, approve, reject, enable (Manage Users). */
export function adminAccountRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/admin/accounts", ...READ, async (c) => list(c, v1Query(await filterParams(c))));
  app.get("/api/v2/admin/accounts", ...READ, async (c) => list(c, v2Query(await filterParams(c))));

  app.get("/api/v1/admin/accounts/:id", ...READ, async (c) =>
    c.json(await adminAccountJson(c.env.ctx, c.req.param("id"))),
  );

  app.post("/api/v1/admin/accounts/:id/approve", ...WRITE, async (c) => {
    const ctx = c.env.ctx;
    const account = await findAdminAccount(ctx, c.req.param("id"));
    return c.json(await approveAccount(ctx, moderatorOf(currentAccount(c)), account));
  });

  app.post("/api/v1/admin/accounts/:id/reject", ...WRITE, async (c) => {
    const ctx = c.env.ctx;
    const account = await findAdminAccount(ctx, c.req.param("id"));
    return c.json(await rejectAccount(ctx, moderatorOf(currentAccount(c)), account));
  });

  app.post("/api/v1/admin/accounts/:id/enable", ...WRITE, async (c) => {
    const ctx = c.env.ctx;
    const account = await findAdminAccount(ctx, c.req.param("id"));
    return c.json(await enableAccount(ctx, moderatorOf(currentAccount(c)), account));
  });
}
