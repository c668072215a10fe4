import { z } from "zod";
import type { DocArea, RouteDoc } from "../types.ts";
import { d, html } from "./common.ts";

// The web client's pages (src/http/web/client/pages.ts): HTML for a signed-in browser session,
// rendered from the same services and serializers as the API routes named; without a session
// they redirect to the sign-in form. Their scripts then use the API with the session's token.
const page = (summary: string, description: string, more: Partial<RouteDoc> = {}) =>
  d(summary, html, { auth: "none", description, answers: { 302: null, 403: html, ...more.answers }, ...more });
const missing = { answers: { 302: null, 403: html, 404: html, 410: html } };

/** The web client's notifications, thread, profile, conversations and search pages. */
export const webClientPageDocs: DocArea = {
  tag: "Web client",
  description: "The web client's pages (docs/web-client-pages.md)",
  routes: {
    "GET /notifications": page(
      "Grouped notifications",
      "As `GET /api/v2/notifications`; those newer than the `notifications` marker are highlighted. Live updates come from the `user:notification` stream.",
      { query: z.object({ filter: z.enum(["mentions"]).optional().describe("`mentions` for mentions only") }) },
    ),
    "GET /web/statuses/:id": page(
      "A post's thread",
      "The ancestors, the post and its descendants as `GET /api/v1/statuses/:id/context` (filter context `thread`); 404 or 410 where the API answers so.",
      missing,
    ),
    "GET /web/accounts/:id": page(
      "A profile",
      "The account as `GET /api/v1/accounts/:id`, the viewer's relationship, and its posts as `GET /api/v1/accounts/:id/statuses`.",
      {
        ...missing,
        query: z.object({
          tab: z.enum(["posts", "replies", "media"]).optional().describe("Posts (default), with replies, or media"),
        }),
      },
    ),
    "GET /web/accounts/:id/following": page(
      "The accounts a profile follows",
      "As `GET /api/v1/accounts/:id/following` for the viewer.",
      missing,
    ),
    "GET /web/accounts/:id/followers": page(
      "A profile's followers",
      "As `GET /api/v1/accounts/:id/followers` for the viewer.",
      missing,
    ),
    "GET /conversations": page(
      "Direct conversations",
      "As `GET /api/v1/conversations`; opening one marks it read through the API.",
    ),
    "GET /search": page("Search", "The results of `GET /api/v2/search` for `q` (accounts, hashtags, posts).", {
      query: z.object({ q: z.string().optional().describe("What to search for") }),
    }),
  },
};
