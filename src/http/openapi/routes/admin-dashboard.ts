import { z } from "zod";
import { updateSchema as tagUpdate } from "../../api/v1/admin/tag-routes.ts";
import { arrayOf } from "../../validate.ts";
import type { DocArea } from "../types.ts";
import { d, pageOf } from "./common.ts";

const day = z.string().describe("A date (`2025-03-01`) or date-time; its time is ignored");
const keys = (known: readonly string[]) =>
  arrayOf(z.string()).describe(`The keys wanted, as \`keys[]\` (unknown ones are left out): ${known.join(", ")}`);

const measures = z.object({
  keys: keys([
    "active_users",
    "new_users",
    "interactions",
    "opened_reports",
    "resolved_reports",
    "tag_accounts",
    "tag_uses",
    "tag_servers",
    "instance_accounts",
    "instance_media_attachments",
    "instance_reports",
    "instance_statuses",
    "instance_follows",
    "instance_followers",
  ]),
  start_at: day,
  end_at: day,
  tag_accounts: z.object({ id: z.string() }).optional().describe("The tag of `tag_accounts` (required with it)"),
  tag_uses: z.object({ id: z.string() }).optional().describe("The tag of `tag_uses` (required with it)"),
  tag_servers: z.object({ id: z.string() }).optional().describe("The tag of `tag_servers` (required with it)"),
  instance_accounts: z
    .object({ domain: z.string(), include_subdomains: z.boolean().optional() })
    .optional()
    .describe("The server of each `instance_*` key (required with it), likewise for the others"),
});

const dimensions = z.object({
  keys: keys([
    "languages",
    "sources",
    "servers",
    "space_usage",
    "software_versions",
    "tag_servers",
    "tag_languages",
    "instance_accounts",
    "instance_languages",
  ]),
  start_at: day.optional(),
  end_at: day.optional(),
  limit: z.number().int().nonnegative().optional().describe("Rows per dimension (all, up to 1000, without it)"),
  tag_servers: z.object({ id: z.string() }).optional(),
  tag_languages: z.object({ id: z.string() }).optional(),
  instance_accounts: z.object({ domain: z.string() }).optional(),
  instance_languages: z.object({ domain: z.string() }).optional(),
});

const retention = z.object({
  start_at: day,
  end_at: day,
  frequency: z.enum(["day", "month"]).optional().describe("`day` (the default for any other value) or `month`"),
});

const dashboard = { errors: [400], validates: false };
const admin = { tags: ["Admin"] };

/** Admin API: dashboard measures, dimensions, retention, and hashtags. */
export const adminDashboardDocs: DocArea = {
  tag: "Admin",
  routes: {
    "POST /api/v1/admin/measures": d("Dashboard measures: totals and daily figures", "AdminMeasure[]", {
      body: measures,
      ...dashboard,
    }),
    "POST /api/v1/admin/dimensions": d("Dashboard breakdowns: top groups", "AdminDimension[]", {
      body: dimensions,
      ...dashboard,
    }),
    "POST /api/v1/admin/retention": d("Sign-up cohorts and how many stayed active", "AdminCohort[]", {
      body: retention,
      ...dashboard,
    }),
    "GET /api/v1/admin/tags": pageOf("All hashtags, newest first", "AdminTag", 100, 200, admin),
    "GET /api/v1/admin/tags/:id": d("One hashtag", "AdminTag", admin),
    "PUT /api/v1/admin/tags/:id": d("Change a hashtag's display name or switches", "AdminTag", {
      body: tagUpdate,
      ...admin,
    }),
  },
};
