import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

// Panel pages: without a session they redirect to the sign-in form (302); a role without the
// page's permission gets the 403 page. They read their query without a 422 for bad values.
const staffPage = { auth: "none" as const, validates: false, answers: { 302: null, 403: html } };
const day = z.string().describe("A day, `YYYY-MM-DD`");

/** The web side's admin-dashboard pages (src/http/web/admin/dashboard). */
export const webAdminDashboardDocs: DocArea = {
  tag: "Web: moderation panel",
  description: "The moderation panel's pages (docs/web-admin.md)",
  routes: {
    "GET /admin": d("The moderation panel: redirects to the first page the staff member's role opens", null, {
      status: 302,
      description: "The dashboard for most roles; a user whose role opens no panel page gets the 403 page.",
      ...staffPage,
    }),
    "GET /admin/dashboard": d("Dashboard: measures, dimensions and what needs attention (View Dashboard)", html, {
      description:
        "The admin API's measures (active users, new users, interactions, reports opened and resolved) as totals with a bar chart per day, its dimensions (servers, languages, software, space used) as tables, and counts of pending sign-ups, open reports, trends waiting for review and failing deliveries. The last 30 days unless `start_at`/`end_at` say otherwise (at most 366 days; dates that cannot be read fall back to the last 30 days).",
      query: z.object({ start_at: day.optional(), end_at: day.optional() }),
      ...staffPage,
    }),
    "GET /admin/jobs": d(
      "The job queue: counts by job and state, the oldest waiting job, failing jobs (DevOps)",
      html,
      {
        description: "What `gannet jobs list` shows. Read only.",
        ...staffPage,
      },
    ),
    "GET /admin/action_logs": d("The audit log, newest first, with filters (View Audit Log)", html, {
      description:
        "40 entries a page, with Older/Newer links (`max_id`/`min_id`). The `action` filter is applied while paging (at most 2000 entries looked through a page).",
      query: z.object({
        account_id: z.string().optional().describe("Only what this staff account did"),
        action: z.string().optional().describe("Only this action: `create`, `suspend`, `resolve`, ..."),
        target_type: z
          .string()
          .optional()
          .describe("Only actions on this kind of target: `Account`, `DomainBlock`, ..."),
        target_id: z.string().optional().describe("Only actions on this target"),
        max_id: z.string().optional().describe("Entries older than this one"),
        min_id: z.string().optional().describe("Entries just newer than this one"),
      }),
      ...staffPage,
    }),
  },
};
