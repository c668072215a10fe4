import { z } from "zod";
import { listSchema as adminReportList, updateSchema as adminReportUpdate } from "../../api/v1/admin/report-routes.ts";
import { reportSchema } from "../../api/v1/reports/routes.ts";
import { arrayOf, intish } from "../../validate.ts";
import type { DocArea } from "../types.ts";
import { bool, d, EMPTY, pageOf } from "./common.ts";

/** What the filter routes read by hand (v2/filters/params). */
const context = arrayOf(z.enum(["home", "notifications", "public", "thread", "account"])).describe(
  "Where the filter applies, as `context[]`",
);
const keyword = z.object({ keyword: z.string(), whole_word: bool });
const filterV2 = z.object({
  title: z.string(),
  context,
  filter_action: z.enum(["warn", "hide", "blur"]).optional(),
  expires_in: intish.optional().describe("Seconds until the filter expires"),
  keywords_attributes: z
    .array(keyword.extend({ id: z.string().optional(), _destroy: bool }))
    .optional()
    .describe("Keywords to add, change (`id`) or remove (`_destroy`)"),
});
const filterV1 = z.object({
  phrase: z.string(),
  context,
  irreversible: bool,
  whole_word: bool,
  expires_in: intish.optional(),
});
const statusFilter = z.object({ status_id: z.string() });

/** What search/routes.ts reads by hand. */
const search = z.object({
  q: z.string(),
  type: z.enum(["accounts", "hashtags", "statuses"]).optional(),
  resolve: bool.describe("Resolve a URL or address from other servers (needs a user token)"),
  following: bool,
  account_id: z.string().optional(),
  exclude_unreviewed: bool,
  max_id: z.string().optional(),
  min_id: z.string().optional(),
  limit: intish.optional(),
  offset: intish.optional(),
});
const report = reportSchema.extend({
  status_ids: arrayOf(z.string()).optional(),
  rule_ids: arrayOf(z.string()).optional(),
});
const admin = { tags: ["Admin"] };
const AR = "AdminReport";

/** Filters (v1 and v2), search, reports and the admin reports API. */
export const filterDocs: DocArea = {
  tag: "Filters",
  description: "Filters that hide or warn about statuses",
  routes: {
    "GET /api/v2/filters": d("The user's filters", "Filter[]"),
    "GET /api/v2/filters/:id{[0-9]+}": d("One filter", "Filter"),
    "POST /api/v2/filters": d("Create a filter", "Filter", { body: filterV2 }),
    "PUT /api/v2/filters/:id{[0-9]+}": d("Change a filter", "Filter", { body: filterV2.partial() }),
    "DELETE /api/v2/filters/:id{[0-9]+}": d("Delete a filter", EMPTY),
    "GET /api/v2/filters/:filter_id{[0-9]+}/keywords": d("A filter's keywords", "FilterKeyword[]"),
    "POST /api/v2/filters/:filter_id{[0-9]+}/keywords": d("Add a keyword", "FilterKeyword", {
      body: keyword,
    }),
    "POST /api/v2/filters/:filter_id{[0-9]+}/keywords/:id": d(
      "Add a keyword (the path's `id` is ignored, as Mastodon routes it)",
      "FilterKeyword",
      { body: keyword },
    ),
    "GET /api/v2/filters/keywords/:id{[0-9]+}": d("One keyword", "FilterKeyword"),
    "PUT /api/v2/filters/keywords/:id{[0-9]+}": d("Change a keyword", "FilterKeyword", {
      body: keyword.partial(),
    }),
    "DELETE /api/v2/filters/keywords/:id{[0-9]+}": d("Remove a keyword", EMPTY),
    "GET /api/v1/filters/keywords/:id{[0-9]+}": d("One keyword (v1 path)", "FilterKeyword"),
    "PUT /api/v1/filters/keywords/:id{[0-9]+}": d("Change a keyword (v1 path)", "FilterKeyword", {
      body: keyword.partial(),
    }),
    "DELETE /api/v1/filters/keywords/:id{[0-9]+}": d("Remove a keyword (v1 path)", EMPTY),
    "GET /api/v2/filters/:filter_id{[0-9]+}/statuses": d("A filter's statuses", "FilterStatus[]"),
    "POST /api/v2/filters/:filter_id{[0-9]+}/statuses": d("Add a status to a filter", "FilterStatus", {
      body: statusFilter,
    }),
    "GET /api/v2/filters/statuses/:id{[0-9]+}": d("One filtered status", "FilterStatus"),
    "DELETE /api/v2/filters/statuses/:id{[0-9]+}": d("Remove a status from a filter", EMPTY),
    "GET /api/v1/filters": d("The user's filters, one per keyword (v1)", "FilterV1[]", { deprecated: true }),
    "GET /api/v1/filters/:id{[0-9]+}": d("One v1 filter", "FilterV1", { deprecated: true }),
    "POST /api/v1/filters": d("Create a v1 filter", "FilterV1", { body: filterV1, deprecated: true }),
    "PUT /api/v1/filters/:id{[0-9]+}": d("Change a v1 filter", "FilterV1", {
      body: filterV1.partial(),
      deprecated: true,
    }),
    "DELETE /api/v1/filters/:id{[0-9]+}": d("Delete a v1 filter", EMPTY, { deprecated: true }),
    "GET /api/v2/search": d("Search accounts, hashtags and statuses", "Search", {
      query: search,
      errors: [400],
      tags: ["Search"],
    }),
    "POST /api/v1/reports": d("Report an account (and statuses) to the moderators", "Report", {
      body: report,
      tags: ["Reports"],
    }),
    "GET /api/v1/admin/reports": pageOf("Reports", AR, 100, 200, { query: adminReportList, ...admin }),
    "GET /api/v1/admin/reports/:id": d("One report", AR, admin),
    "PUT /api/v1/admin/reports/:id": d("Change a report's category or rules", AR, {
      body: adminReportUpdate,
      ...admin,
    }),
    "POST /api/v1/admin/reports/:id/assign_to_self": d("Take a report", AR, admin),
    "POST /api/v1/admin/reports/:id/unassign": d("Leave a report", AR, admin),
    "POST /api/v1/admin/reports/:id/resolve": d("Resolve a report", AR, admin),
    "POST /api/v1/admin/reports/:id/reopen": d("Reopen a report", AR, admin),
  },
};
