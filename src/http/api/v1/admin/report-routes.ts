import type { Context, Hono } from "hono";
import { z } from "zod";
import { isId } from "../../../../lib/ids.ts";
import { REPORT_CATEGORIES } from "../../../../lib/reports.ts";
import { Permission } from "../../../../lib/roles.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as admin from "../../../../services/reports/admin.ts";
import { adminReportsJson } from "../../../../services/reports/admin-views.ts";
import type { Report } from "../../../../services/reports/types.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, validate } from "../../../validate.ts";

const READ = requireAdmin(Permission.manageReports, "admin:read:reports");
const WRITE = requireAdmin(Permission.manageReports, "admin:write:reports");

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

export const listSchema = z.object({ resolved: optional(boolish) });

export const updateSchema = z.object({
  category: optional(z.enum(REPORT_CATEGORIES, { message: "is not included in the list" })),
  rule_ids: z.preprocess(
    (v) =>
      asArray(v)
        ?.map((x) => (typeof x === "number" && Number.isSafeInteger(x) ? String(x) : x))
        .filter((x) => x !== "" && x !== null),
    z.array(z.string()).optional(),
  ),
});

/** An id filter: ignored unless it is an id (Mastodon matches nothing for a bad one; nothing matches here either). */
const idFilter = (v: unknown): string | undefined => {
  if (v === undefined || v === "") return undefined;
  return typeof v === "string" && isId(v) ? v : "0";
};

const moderator = (c: Context<HonoEnv>) => moderatorOf(currentAccount(c));

async function one(c: Context<HonoEnv>, report: Report) {
  const [json] = await adminReportsJson(c.env.ctx, [report], currentAccount(c).id);
  return c.json(json);
}

/** 1.28 Admin API: reports (Manage Reports). */
export function adminReportRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/admin/reports", ...READ, async (c) => {
    const ctx = c.env.ctx;
    const params = await readParams(c);
    const p = validate(listSchema, params);
    const page = pageParams(c, 100, 200);
    const rows = await admin.listReports(
      ctx,
      {
        // Unresolved reports unless `resolved` is given (Mastodon's ReportFilter).
        resolved: p.resolved ?? false,
        accountId: idFilter(params.account_id),
        targetAccountId: idFilter(params.target_account_id),
      },
      page,
    );
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await adminReportsJson(ctx, rows, currentAccount(c).id));
  });

  app.get("/api/v1/admin/reports/:id", ...READ, async (c) =>
    one(c, await admin.findReport(c.env.ctx, c.req.param("id"))),
  );

  app.put("/api/v1/admin/reports/:id", ...WRITE, async (c) => {
    const ctx = c.env.ctx;
    const report = await admin.findReport(ctx, c.req.param("id"));
    const p = validate(updateSchema, await readParams(c));
    return one(c, await admin.updateReport(ctx, report, { category: p.category, ruleIds: p.rule_ids }, moderator(c)));
  });

  app.post("/api/v1/admin/reports/:id/assign_to_self", ...WRITE, async (c) => {
    const report = await admin.findReport(c.env.ctx, c.req.param("id"));
    return one(c, await admin.assignToSelf(c.env.ctx, report, moderator(c)));
  });
  app.post("/api/v1/admin/reports/:id/unassign", ...WRITE, async (c) => {
    const report = await admin.findReport(c.env.ctx, c.req.param("id"));
    return one(c, await admin.unassign(c.env.ctx, report, moderator(c)));
  });
  app.post("/api/v1/admin/reports/:id/resolve", ...WRITE, async (c) => {
    const report = await admin.findReport(c.env.ctx, c.req.param("id"));
    return one(c, await admin.resolve(c.env.ctx, report, moderator(c)));
  });
  app.post("/api/v1/admin/reports/:id/reopen", ...WRITE, async (c) => {
    const report = await admin.findReport(c.env.ctx, c.req.param("id"));
    return one(c, await admin.reopen(c.env.ctx, report, moderator(c)));
  });
}
