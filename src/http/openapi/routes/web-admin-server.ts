import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

// The moderation panel's content and server pages (docs/web-admin-server.md): HTML for staff.
// Without a session they redirect to the sign-in form (302); without the role permission they
// answer a 403 page; a form whose CSRF token does not match answers the 422 "form expired" page.
const pub = { auth: "none" as const, validates: false };
const csrf = { authenticity_token: z.string().describe("The page's CSRF token") };
const page = (summary: string, permission: string, more: Record<string, unknown> = {}) =>
  d(summary, html, {
    description: `Needs the ${permission} permission.`,
    answers: { 302: null, 403: html, 404: html },
    ...pub,
    ...more,
  });
const action = (summary: string, permission: string, fields: Record<string, z.ZodType> = {}, more = "") =>
  d(summary, null, {
    status: 303,
    description: `Needs the ${permission} permission. Redirects back to the list with a notice; a refused change shows the page again with the reason (422).${more ? ` ${more}` : ""}`,
    body: z.object({ ...csrf, ...fields }),
    answers: { 302: null, 403: html, 404: html, 422: html },
    ...pub,
  });

const multipart = (...args: Parameters<typeof action>) => ({ ...action(...args), multipart: true });

const S = "Manage Settings";
const A = "Manage Announcements";
const E = "Manage Custom Emojis";
const R = "Manage Rules";
const RO = "Manage Roles";
const T = "Manage Taxonomies";
const text = (description: string) => z.string().optional().describe(description);
const flag = (description: string) => z.string().optional().describe(`${description} (a checkbox: present means yes)`);
const announcement = {
  text: z.string().describe("The announcement's text"),
  all_day: flag("All day: only the dates of the start and end are kept"),
  starts_at: text("Start, `YYYY-MM-DDTHH:MM` in UTC (or a date); with ends_at or neither"),
  ends_at: text("End, not before the start"),
};
const role = {
  name: text("Name (not for the base role)"),
  position: text("Position, below the staff member's own role"),
  color: text("Badge colour, `#rrggbb` or empty"),
  highlighted: flag("Shown as a badge on members' profiles"),
  "permissions[]": z.array(z.string()).optional().describe("Permission names (`manage_reports`, ...)"),
};

/** The moderation panel: content and server (src/http/web/admin/server). */
export const webAdminServerDocs: DocArea = {
  tag: "Web: moderation panel",
  description: "The moderation panel's pages (docs/web-admin.md)",
  routes: {
    "GET /admin/settings": page(
      "Server settings: name, description, contact, sign-ups, visibility, banner, texts, terms",
      S,
    ),
    "POST /admin/settings": action("Save the general settings", S, {
      site_title: z.string(),
      site_short_description: text("Short description"),
      site_contact_username: text("A local username shown as the contact"),
      site_contact_email: text("Contact e-mail address"),
      registrations_mode: z.enum(["open", "approved", "none"]),
      require_invite_text: flag("Ask approval-mode sign-ups for a reason"),
      closed_registrations_message: text("Shown while sign-ups are closed (HTML)"),
      min_age: text("Minimum age in years asked at sign-up; empty: none"),
      status_page_url: text("An http(s) address of a status page; empty: none"),
      show_domain_blocks: z.enum(["disabled", "users", "all"]),
      show_domain_blocks_rationale: z.enum(["disabled", "users", "all"]),
      local_live_feed_access: z.enum(["public", "authenticated", "disabled"]),
      remote_live_feed_access: z.enum(["public", "authenticated", "disabled"]),
    }),
    "POST /admin/settings/thumbnail": multipart(
      "Upload the server banner (instance thumbnail) and its description",
      S,
      {
        thumbnail: z.any().optional().describe("An image file (multipart/form-data)"),
        thumbnail_description: text("Alt text"),
      },
      "Sent as multipart/form-data; the image is cropped to 1200x630 and re-encoded.",
    ),
    "POST /admin/settings/thumbnail/delete": action("Remove the server banner (the default is shown)", S),
    "POST /admin/settings/texts": action("Save the extended description and privacy policy", S, {
      site_extended_description: text("HTML"),
      site_terms: text("The privacy policy, HTML; empty: the default policy"),
    }),
    "POST /admin/settings/terms": action("Publish a dated version of the terms of service", S, {
      effective_date: z.string().describe("`YYYY-MM-DD`"),
      text: z.string().describe("HTML"),
    }),

    "GET /admin/announcements": page("Announcements: drafts and published", A),
    "GET /admin/announcements/new": page("Write an announcement", A),
    "POST /admin/announcements": action("Create an announcement", A, {
      ...announcement,
      publish: flag("Publish at once"),
    }),
    "GET /admin/announcements/:id/edit": page("Edit an announcement", A),
    "POST /admin/announcements/:id": action("Save an announcement", A, announcement),
    "POST /admin/announcements/:id/publish": action("Publish an announcement", A),
    "POST /admin/announcements/:id/unpublish": action("Take an announcement back to a draft", A),
    "POST /admin/announcements/:id/delete": action("Delete an announcement", A),

    "GET /admin/custom_emojis": page("Custom emojis, local and remote, with filters", E, {
      query: z.object({
        origin: z.enum(["local", "remote", "all"]).optional(),
        shortcode: text("Part of a shortcode"),
        domain: text("A remote server"),
        page: text("Page number"),
      }),
    }),
    "POST /admin/custom_emojis": multipart(
      "Upload a custom emoji",
      E,
      {
        shortcode: z.string(),
        image: z.any().describe("PNG, GIF or WebP, at most 256 KB"),
        category: text("Category"),
      },
      "Sent as multipart/form-data.",
    ),
    "POST /admin/custom_emojis/:id": action("Change a local emoji's category and picker visibility", E, {
      category: text("Category; empty: none"),
      visible_in_picker: flag("Listed in the picker"),
    }),
    "POST /admin/custom_emojis/:id/enable": action("Enable an emoji", E),
    "POST /admin/custom_emojis/:id/disable": action("Disable an emoji", E),
    "POST /admin/custom_emojis/:id/copy": action("Copy a remote emoji to this server", E),
    "POST /admin/custom_emojis/:id/delete": action("Delete an emoji", E),

    "GET /admin/rules": page("The server's rules, in order, with the form to add one", R),
    "POST /admin/rules": action("Add a rule", R, { text: z.string(), hint: text("Explanation") }),
    "GET /admin/rules/:id/edit": page("Edit a rule", R),
    "POST /admin/rules/:id": action("Save a rule", R, {
      text: z.string(),
      hint: text("Explanation"),
      position: text("Position (lower first)"),
    }),
    "POST /admin/rules/:id/move": action("Move a rule one place", R, { direction: z.enum(["up", "down"]) }),
    "POST /admin/rules/:id/delete": action("Delete a rule", R),

    "GET /admin/roles": page("Roles and their permissions", RO),
    "GET /admin/roles/new": page("Create a role", RO),
    "POST /admin/roles": action("Create a role", RO, role),
    "GET /admin/roles/:id/edit": page("Edit a role", RO),
    "POST /admin/roles/:id": action("Save a role", RO, role),
    "POST /admin/roles/:id/delete": action("Delete a role (its members go back to the base role)", RO),

    "GET /admin/trends": page("Trending hashtags, links or posts to review, those waiting first", T, {
      query: z.object({ kind: z.enum(["tags", "links", "statuses"]).optional() }),
    }),
    "POST /admin/trends/tags/:id/approve": action("Let a hashtag trend", T),
    "POST /admin/trends/tags/:id/reject": action("Keep a hashtag from trending", T),
    "POST /admin/trends/links/:id/approve": action("Let a link trend", T),
    "POST /admin/trends/links/:id/reject": action("Keep a link from trending", T),
    "POST /admin/trends/statuses/:id/approve": action("Let a post trend", T),
    "POST /admin/trends/statuses/:id/reject": action("Keep a post from trending", T),
  },
};
