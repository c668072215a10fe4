import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

const staff = { auth: "none" as const, validates: false };
const form = { authenticity_token: z.string().describe("The page's CSRF token") };
const id = { id: "The report's id" };
/** Every POST: 303 back to the report; the sign-in redirect, the 403 page (role), 422 (CSRF, a refused change). */
const changed = { 302: null, 403: html, 404: html, 422: html };

const post = (summary: string, description: string, body: z.ZodType = z.object(form)) =>
  d(summary, null, {
    status: 303,
    description: `${description} Redirects back to the report with a notice. Manage Reports.`,
    body,
    answers: changed,
    pathDescriptions: id,
    ...staff,
  });

/** The web side's admin-reports pages (src/http/web/admin/reports). */
export const webAdminReportDocs: DocArea = {
  tag: "Web: moderation panel",
  description: "The moderation panel's pages (docs/web-admin.md)",
  routes: {
    "GET /admin/reports": d("Reports: the list, with filters", html, {
      description:
        "Unresolved reports unless `resolved=1`, newest first, 40 a page. Staff with Manage Reports; others get the 403 page, visitors the sign-in redirect.",
      query: z.object({
        resolved: z.enum(["", "1"]).optional().describe("1: resolved reports"),
        origin: z.enum(["", "local", "remote"]).optional().describe("The reported account's origin"),
        target: z.string().optional().describe("The reported account: username or user@domain"),
        target_account_id: z.string().optional().describe("The reported account's id"),
        account_id: z.string().optional().describe("The reporter's account id"),
        max_id: z.string().optional(),
        min_id: z.string().optional(),
      }),
      answers: { 302: null, 403: html },
      ...staff,
    }),
    "GET /admin/reports/:id": d("One report", html, {
      description:
        "The accounts, the reporter's comment, category and rules, the reported posts (content warning, text, attachments with their descriptions), notes, the act form (with Manage Users) and the history from the action log.",
      answers: { 302: null, 403: html, 404: html },
      pathDescriptions: id,
      ...staff,
    }),
    "POST /admin/reports/:id/assign_to_self": post("Assign the report to me", "Logged as `assigned_to_self`."),
    "POST /admin/reports/:id/unassign": post("Unassign the report", "Logged as `unassigned`."),
    "POST /admin/reports/:id/resolve": post("Mark the report resolved", "Logged as `resolve`."),
    "POST /admin/reports/:id/reopen": post("Reopen the report", "Logged as `reopen`."),
    "POST /admin/reports/:id/notes": post(
      "Add a note to the report",
      "At most 500 characters; logged as `create` of a `ReportNote`.",
      z.object({ ...form, content: z.string().max(500) }),
    ),
    "POST /admin/reports/:id/notes/:note_id/delete": d("Delete one's own note", null, {
      status: 303,
      description:
        "Only the note's author (403 otherwise); logged as `destroy` of a `ReportNote`. Redirects back to the report.",
      body: z.object(form),
      answers: changed,
      pathDescriptions: { ...id, note_id: "The note's id" },
      ...staff,
    }),
    "POST /admin/reports/:id/action": post(
      "Act on the reported account",
      "The admin API's account action with the report (Manage Users as well): a strike with the preset's and the given text, a `moderation_warning` notification and (when asked) a mail to a local user, the action logged, and the report resolved (every unresolved report about the account for actions other than `none`).",
      z.object({
        ...form,
        type: z.enum(["none", "sensitive", "disable", "silence", "suspend"]),
        preset: z
          .string()
          .optional()
          .describe("`server:<id>` (a warning preset of the server) or `standard:<key>` (a built-in text)"),
        text: z.string().max(5000).optional(),
        send_email_notification: z.enum(["1"]).optional().describe("Mail the user"),
      }),
    ),
  },
};
