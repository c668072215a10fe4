import { z } from "zod";
import type { Answer, DocArea } from "../types.ts";
import { d, html } from "./common.ts";

// The web side's public site, public profiles and settings pages (src/http/web): HTML for people,
// not an API. Every form carries `authenticity_token`, the CSRF token of the browser session;
// settings pages redirect to the sign-in form without a signed-in session.
const csrf = z.object({ authenticity_token: z.string() });
const pub = { auth: "none" as const };
const text = (type: string, description: string): Answer => ({ schema: { type: "string" }, type, description });
const csv = text("text/csv", "A CSV file (attachment)");
const page = (summary: string, more: Record<string, unknown> = {}) => d(summary, html, { ...pub, ...more });
const settings = (summary: string) => d(summary, html, { answers: { 302: null, 404: html }, ...pub });
const form = (summary: string, fields = "") =>
  d(summary, html, {
    body: csrf.passthrough(),
    description: fields ? `Form fields: ${fields}.` : undefined,
    answers: { 302: null, 303: null, 404: html, 422: html, 429: html },
    ...pub,
  });
const handle = { handle: "`@username`" };

/** The public site, public profiles, settings, import and export pages. */
export const webPageDocs: DocArea = {
  tag: "Web",
  description: "Server-rendered pages (docs/web.md)",
  routes: {
    "GET /assets/:name": d("A stylesheet or script of the web pages", text("text/css", "CSS or JavaScript"), {
      description: "Cached for a year when `?v=` names the current content hash.",
      answers: { 404: "Error" },
      ...pub,
    }),
    // The public site (docs/web-site.md).
    "GET /": page("The landing page (for a signed-in user: a welcome page)"),
    "GET /about": page("About this server: description, rules, contact, statistics, moderated servers"),
    "GET /about/more": page("Redirects to /about (Mastodon 3's path)", { answers: { 301: null, 302: null } }),
    "GET /terms": page("Redirects to /terms-of-service", { answers: { 301: null, 302: null } }),
    "GET /privacy-policy": page("The privacy policy", { answers: { 404: html } }),
    "GET /terms-of-service": page("The terms of service in effect", { answers: { 404: html } }),
    "GET /terms-of-service/:date": page("One dated version of the terms of service", {
      pathDescriptions: { date: "YYYY-MM-DD" },
      answers: { 404: html },
    }),
    "GET /public/local": page("The local live feed, where the operator allows it", { answers: { 403: html } }),
    "GET /public": page("The federated live feed, where the operator allows it", { answers: { 403: html } }),
    "GET /robots.txt": page("Rules for crawlers", { ok: text("text/plain", "robots.txt") }),
    "GET /favicon.ico": d("The site icon", text("image/x-icon", "An icon"), pub),
    "GET /manifest.json": d(
      "The web app manifest",
      { schema: { type: "object" }, type: "application/manifest+json" },
      pub,
    ),
    // Public profiles, posts and hashtags (docs/web-profiles.md).
    "GET /:handle{@[A-Za-z0-9_]+}/with_replies": page("A profile's posts and replies", {
      pathDescriptions: handle,
      answers: { 404: html, 410: html },
    }),
    "GET /:handle{@[A-Za-z0-9_]+}/media": page("A profile's posts with media", {
      pathDescriptions: handle,
      answers: { 404: html, 410: html },
    }),
    "GET /:handle{@[A-Za-z0-9_]+}/:id{[0-9]{1,20}}/embed": page("One post for embedding in other sites (frameable)", {
      pathDescriptions: handle,
      answers: { 404: html, 410: html },
    }),
    "GET /:acct{@[A-Za-z0-9_]+@[A-Za-z0-9.-]+[A-Za-z0-9]}": page("Redirects to a known remote account's own page", {
      pathDescriptions: { acct: "`@username@domain`" },
      answers: { 302: null, 404: html },
    }),
    "GET /tags/:name{[^/.]+}": page("A hashtag's public posts", { answers: { 404: html } }),
    // Settings (docs/web-settings.md).
    "GET /settings": settings("Redirects to /settings/profile"),
    "GET /settings/profile": settings("The public profile form"),
    "POST /settings/profile": form(
      "Save the public profile (multipart for images)",
      "display_name, note, avatar, header, remove_avatar, remove_header, fields_attributes[N][name|value], locked, bot, discoverable, indexable, hide_collections",
    ),
    "GET /settings/preferences": settings("The preferences form"),
    "POST /settings/preferences": form(
      "Save preferences",
      "default privacy, quote policy, language, sensitive, locale, chosen languages, reading preferences",
    ),
    "GET /filters": settings("The user's filters"),
    "GET /filters/new": settings("The new filter form"),
    "POST /filters": form("Create a filter", "title, context[], filter_action, expires_in, keywords"),
    "GET /filters/:id/edit": settings("The form of one of the user's filters"),
    "POST /filters/:id": form("Save a filter", "title, context[], filter_action, expires_in, keywords"),
    "POST /filters/:id/delete": form("Delete a filter"),
    "GET /settings/featured_tags": settings("Featured hashtags"),
    "POST /settings/featured_tags": form("Feature a hashtag", "name"),
    "POST /settings/featured_tags/:id/delete": form("Stop featuring a hashtag"),
    "GET /settings/followed_tags": settings("Followed hashtags"),
    "POST /settings/followed_tags": form("Follow a hashtag", "name"),
    "POST /settings/followed_tags/unfollow": form("Unfollow a hashtag", "name"),
    "GET /oauth/authorized_applications": settings("Apps the user authorized"),
    "POST /oauth/authorized_applications/:id/revoke": form("Revoke every token of the user for an app"),
    "GET /settings/applications": settings("The user's own apps (development)"),
    "GET /settings/applications/new": settings("The new app form"),
    "POST /settings/applications": form("Create an app", "name, website, redirect_uris, scopes[]"),
    "GET /settings/applications/:id{[0-9]+}": settings("An app's keys and the owner's access token"),
    "GET /settings/applications/:id{[0-9]+}/edit": settings("The app's form"),
    "POST /settings/applications/:id{[0-9]+}": form("Save an app", "name, website, redirect_uris, scopes[]"),
    "POST /settings/applications/:id{[0-9]+}/regenerate": form("Issue a new access token for the owner"),
    "POST /settings/applications/:id{[0-9]+}/delete": form("Delete an app and its tokens"),
    // Import, export and moving (docs/web-data.md).
    "GET /settings/export": settings("Export: counts, CSV downloads, archives"),
    "POST /settings/export": form("Request an archive of one's posts and media (once a week)"),
    "GET /settings/export/archive/:id": d("Download one's archive", text("application/zip", "A ZIP archive"), {
      answers: { 302: null, 404: html },
      ...pub,
    }),
    "GET /settings/exports/:file": d("A CSV export (follows, lists, blocks, mutes, domain_blocks, bookmarks)", csv, {
      pathDescriptions: {
        file: "`follows.csv`, `lists.csv`, `blocks.csv`, `mutes.csv`, `domain_blocks.csv`, `bookmarks.csv`",
      },
      answers: { 302: null, 404: html },
      ...pub,
    }),
    "GET /settings/imports": settings("Imports and the upload form"),
    "POST /settings/imports": form("Upload a CSV file to import (multipart)", "type, mode (merge|overwrite), data"),
    "GET /settings/imports/:id": settings("One import: confirmation or progress"),
    "POST /settings/imports/:id/confirm": form("Start an uploaded import"),
    "POST /settings/imports/:id/delete": form("Cancel an unconfirmed import"),
    "GET /settings/imports/:id/failures.csv": d("The rows an import could not apply", csv, {
      answers: { 302: null, 404: html },
      ...pub,
    }),
    "GET /settings/aliases": settings("Account aliases (moving here from another account)"),
    "POST /settings/aliases": form("Add an alias", "acct"),
    "POST /settings/aliases/delete": form("Remove an alias", "acct"),
    "GET /settings/migration": settings("Moving this account to another"),
    "POST /settings/migration": form("Move to another account", "acct, current_password"),
    "POST /settings/migration/cancel": form("Cancel the redirect to the new account"),
  },
};
