import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

// The moderation panel's accounts pages (docs/web-admin-accounts.md): HTML for staff. Each page
// and form needs the same role permission as the admin API's endpoint for the same thing, else a
// 403 page; without a session, a redirect to the sign-in form. Forms carry the session's CSRF
// token (422 page when it does not match) and answer with a 303 back to the account's page.
const pub = { auth: "none" as const };
const csrf = { authenticity_token: z.string().describe("The page's CSRF token") };
const pageAnswers = { 302: null, 403: html, 404: html };
const formAnswers = { 302: null, 303: null, 403: html, 404: html, 422: html };
const idPath = { pathDescriptions: { id: "The account's id" } };

/** One account form: its summary, the permission it needs, and its fields beyond the CSRF token. */
const form = (summary: string, permission: string, fields: Record<string, z.ZodType> = {}, more = "") =>
  d(summary, html, {
    status: 303,
    description: `Needs ${permission}, as the admin API. A refusal of the moderation service (403, 422) shows the account's page with the reason and that status.${more ? ` ${more}` : ""}`,
    body: z.object({ ...csrf, ...fields }),
    answers: formAnswers,
    validates: false,
    ...idPath,
    ...pub,
  });

const filters = z.object({
  origin: z.enum(["local", "remote"]).optional().describe("Local or remote accounts"),
  status: z
    .enum(["active", "pending", "disabled", "silenced", "suspended", "sensitized"])
    .optional()
    .describe("The accounts' state"),
  permissions: z.literal("staff").optional().describe("Only staff (roles that manage reports)"),
  "role_ids[]": z.string().optional().describe("Only holders of this role"),
  username: z.string().optional().describe("Usernames starting with this"),
  display_name: z.string().optional().describe("Display names starting with this"),
  by_domain: z.string().optional().describe("Accounts of exactly this domain"),
  email: z.string().optional().describe("E-mail addresses starting with this"),
  ip: z.string().optional().describe("Signed up or in from this address or CIDR range"),
  max_id: z.string().optional().describe("The next (older) page starts below this id"),
});

/** The web side's admin-accounts pages (src/http/web/admin/accounts). */
export const webAdminAccountDocs: DocArea = {
  tag: "Web: moderation panel",
  description: "The moderation panel's pages (docs/web-admin.md)",
  routes: {
    "GET /admin/accounts": d("Accounts: search and filter (as GET /api/v2/admin/accounts), 40 a page", html, {
      description:
        "Needs Manage Users. The filters are those of the v2 admin accounts API; an unknown origin or status shows the page with a 400.",
      query: filters,
      answers: { 302: null, 400: html, 403: html },
      validates: false,
      ...pub,
    }),
    "GET /admin/accounts/:id{[0-9]+}": d("One account: profile, admin details, actions and history", html, {
      description:
        "Needs Manage Users. The Admin::Account details (e-mail, addresses, sign-up reason, role), the actions the staff member may take, warnings given, reports against and by the account, and the action log's entries about it.",
      answers: pageAnswers,
      ...idPath,
      ...pub,
    }),
    "POST /admin/accounts/:id{[0-9]+}/approve": form("Approve a pending sign-up", "Manage Users"),
    "POST /admin/accounts/:id{[0-9]+}/reject": form(
      "Reject a pending sign-up (the account is removed)",
      "Manage Users",
      {},
      "Redirects to the pending accounts.",
    ),
    "POST /admin/accounts/:id{[0-9]+}/action": form("Take an account action with a warning", "Manage Users", {
      type: z
        .enum(["none", "sensitive", "disable", "silence", "suspend"])
        .describe("The action (none: a warning only)"),
      text: z.string().max(5000).optional().describe("The warning's text, shown to the user"),
      send_email_notification: z.string().optional().describe("Present (checked): tell the user by e-mail"),
    }),
    "POST /admin/accounts/:id{[0-9]+}/unsensitive": form(
      "Stop marking the account's media as sensitive",
      "Manage Users",
    ),
    "POST /admin/accounts/:id{[0-9]+}/unsilence": form("Lift the limit on the account", "Manage Users"),
    "POST /admin/accounts/:id{[0-9]+}/unsuspend": form("Lift the account's suspension", "Manage Users"),
    "POST /admin/accounts/:id{[0-9]+}/enable": form("Let a disabled user sign in again", "Manage Users"),
    "POST /admin/accounts/:id{[0-9]+}/delete": form(
      "Delete a suspended account's data now",
      "Delete User Data",
      { confirm: z.string().describe("Must be present (the confirmation box), else 422") },
      "Only for an account suspended here.",
    ),
    "POST /admin/accounts/:id{[0-9]+}/role": form(
      "Change a local user's role",
      "Manage Roles",
      { role_id: z.string().describe("A role below the staff member's own; empty for no role") },
      "Only roles ranked below the staff member's own (422 otherwise); a user at or above it cannot be changed (403).",
    ),
  },
};
