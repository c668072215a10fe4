import { z } from "zod";
import type { DocArea, RouteDoc } from "../types.ts";
import { d, html } from "./common.ts";

// The moderation panel's federation pages (src/http/web/admin/federation, docs/web-admin-federation.md):
// HTML for staff. Without a session they redirect to the sign-in form (302); a role without the
// admin API's permission for the same resource gets a 403 page. Forms carry `authenticity_token`
// (a bad one: the 422 "form has expired" page) and redirect (303) once done.
const pub = { auth: "none" as const, validates: false };
const csrf = { authenticity_token: z.string().describe("The page's CSRF token") };
const bool = z.string().optional().describe("A checkbox: `1` when checked");
const listPage = (summary: string, description: string): RouteDoc =>
  d(summary, html, { description, answers: { 302: null, 403: html }, ...pub });
const formPage = (summary: string, description?: string): RouteDoc =>
  d(summary, html, { description, answers: { 302: null, 403: html, 404: html }, ...pub });
const post = (summary: string, body: z.ZodRawShape, description?: string): RouteDoc =>
  d(summary, null, {
    status: 303,
    description,
    body: z.object({ ...csrf, ...body }),
    answers: { 200: html, 302: null, 403: html, 404: html, 422: html },
    ...pub,
  });

const blockFields = {
  severity: z.enum(["noop", "silence", "suspend"]).optional(),
  reject_media: bool,
  reject_reports: bool,
  private_comment: z.string().optional(),
  public_comment: z.string().optional(),
  obfuscate: bool,
  confirm: z.string().optional().describe("`1`: the confirmation step was shown and accepted"),
};
const ipFields = {
  ip: z.string().describe("An address or a CIDR range"),
  severity: z.enum(["sign_up_requires_approval", "sign_up_block", "no_access"]),
  comment: z.string().optional(),
  expires_in: z.string().optional().describe("Seconds; empty for never; `keep` (editing) keeps the current expiry"),
};

/** The web side's admin-federation pages (src/http/web/admin/federation). */
export const webAdminFederationDocs: DocArea = {
  tag: "Web: moderation panel",
  description: "The moderation panel's pages (docs/web-admin.md)",
  routes: {
    "GET /admin/instances": d("Known servers: counts, block state, delivery health (Manage Federation)", html, {
      query: z.object({
        q: z.string().optional().describe("Part of the domain"),
        failing: z.string().optional().describe("`1`: only servers whose latest deliveries failed"),
        blocked: z.string().optional().describe("`1`: only servers with a domain block"),
        page: z.string().optional().describe("Page number (50 servers a page)"),
      }),
      answers: { 302: null, 403: html },
      ...pub,
    }),
    "GET /admin/instances/:domain": d("One server: counts, block state, delivery health, queued deliveries", html, {
      answers: { 302: null, 403: html, 404: html },
      ...pub,
    }),
    "POST /admin/instances/:domain/restart_delivery": post(
      'Restart delivery to a server marked unavailable (Mastodon\'s "Restart delivery")',
      {},
      "Forgets its days of failure: deliveries to it are attempted again. Back to the server's page with a notice.",
    ),
    "GET /admin/domain_blocks": listPage("Domain blocks (Manage Federation)", "Newest first, 50 a page (`?max_id=`)."),
    "GET /admin/domain_blocks/new": formPage("The form to block a domain", "`?domain=` fills the domain in."),
    "POST /admin/domain_blocks": post(
      "Block a domain",
      { domain: z.string(), ...blockFields },
      "A suspension without `confirm=1` answers the confirmation page (200) instead; a conflict with an existing block (the API's 422) comes back on the form.",
    ),
    "GET /admin/domain_blocks/:id/edit": formPage("The form to change a domain block"),
    "POST /admin/domain_blocks/:id": post(
      "Change a domain block",
      blockFields,
      "A severity change without `confirm=1` answers the confirmation page (200), saying what the change does to the server's accounts.",
    ),
    "POST /admin/domain_blocks/:id/delete": post("Remove a domain block", {}),
    "GET /admin/domain_allows": listPage(
      "Domain allows, with the form to add one (Manage Federation)",
      "Newest first, 50 a page (`?max_id=`).",
    ),
    "POST /admin/domain_allows": post("Allow a domain (limited-federation mode)", { domain: z.string() }),
    "POST /admin/domain_allows/:id/delete": post("Remove a domain allow", {}),
    "GET /admin/email_domain_blocks": listPage(
      "E-mail domain blocks, with the form to add one (Manage Blocks)",
      "Newest first, 50 a page (`?max_id=`), each with its sign-up attempts of the last seven days.",
    ),
    "POST /admin/email_domain_blocks": post("Block an e-mail domain", {
      domain: z.string(),
      allow_with_approval: bool,
    }),
    "POST /admin/email_domain_blocks/:id/delete": post("Remove an e-mail domain block", {}),
    "GET /admin/canonical_email_blocks": listPage(
      "E-mail address blocks, with the forms to add one and to test an address (Manage Blocks)",
      "Newest first, 50 a page (`?max_id=`).",
    ),
    "POST /admin/canonical_email_blocks": post("Block an e-mail address (by address or canonical hash)", {
      email: z.string().optional(),
      canonical_email_hash: z.string().optional().describe("64 hexadecimal digits"),
    }),
    "POST /admin/canonical_email_blocks/test": d("Test an address against the blocks: the page with the result", html, {
      body: z.object({ ...csrf, email: z.string() }),
      answers: { 302: null, 403: html, 422: html },
      ...pub,
    }),
    "POST /admin/canonical_email_blocks/:id/delete": post("Remove an e-mail address block", {}),
    "GET /admin/ip_blocks": listPage("IP rules (Manage Blocks)", "Newest first, 50 a page (`?max_id=`)."),
    "GET /admin/ip_blocks/new": formPage("The form to add an IP rule"),
    "POST /admin/ip_blocks": post("Add an IP rule", ipFields),
    "GET /admin/ip_blocks/:id/edit": formPage("The form to change an IP rule"),
    "POST /admin/ip_blocks/:id": post("Change an IP rule", ipFields),
    "POST /admin/ip_blocks/:id/delete": post("Remove an IP rule", {}),
  },
};
