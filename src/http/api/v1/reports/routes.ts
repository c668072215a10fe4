import type { Hono } from "hono";
import { z } from "zod";
import { REPORT_CATEGORIES } from "../../../../lib/reports.ts";
import { fileReport } from "../../../../services/reports/create.ts";
import { reportsJson } from "../../../../services/reports/views.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { throttle } from "../../../middleware/rate-limit.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, validate } from "../../../validate.ts";

/** Optional parameter: clients send "" or null for "not given". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

/** A list of ids; numbers (JSON clients) are taken as their decimal strings, blanks are dropped. */
const idList = z.preprocess(
  (v) =>
    asArray(v)
      ?.map((x) => (typeof x === "number" && Number.isSafeInteger(x) ? String(x) : x))
      .filter((x) => x !== "" && x !== null),
  z.array(z.string()).optional(),
);

export const reportSchema = z.object({
  account_id: optional(z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string())),
  status_ids: idList,
  rule_ids: idList,
  comment: optional(z.string()),
  forward: optional(boolish),
  category: optional(z.enum(REPORT_CATEGORIES, { message: "is not included in the list" })),
});

/** Mastodon's `reports` action family: 400 reports per day per user. */
const throttleReports = () => throttle("reports", 400, 24 * 60 * 60 * 1000, "user");

/** 1.21 Reports. */
export function reportRoutes(app: Hono<HonoEnv>): void {
  app.post("/api/v1/reports", requireUser("write:reports"), throttleReports(), async (c) => {
    const ctx = c.env.ctx;
    const p = validate(reportSchema, await readParams(c));
    const report = await fileReport(ctx, currentAccount(c), {
      targetAccountId: p.account_id,
      statusIds: p.status_ids ?? [],
      ruleIds: p.rule_ids ?? [],
      comment: p.comment ?? "",
      category: p.category,
      forward: p.forward ?? false,
    });
    const [json] = await reportsJson(ctx, [report]);
    return c.json(json);
  });
}
