import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

// The web client's timeline pages (src/http/web/client/timelines.ts): HTML for a signed-in browser
// session (without one, a redirect to the sign-in form that comes back). Each renders the first
// page of what the matching API answers; `?max_id=` reads on without script.
const signedIn = { auth: "none" as const, validates: false };
const older = z.object({ max_id: z.string().optional().describe("Older than this (the page's own Load more link)") });
const page = (summary: string, description: string, more: Record<string, unknown> = {}) =>
  d(summary, html, { description, query: older, answers: { 302: null }, ...signedIn, ...more });

/** The web client's timelines. */
export const webClientTimelineDocs: DocArea = {
  tag: "Web client",
  description: "The web client's pages (docs/web-client.md)",
  routes: {
    "GET /home": page(
      "The home timeline in the web client",
      "The first 40 posts of `GET /api/v1/timelines/home`, with a separator under the posts newer than the home marker; live through the `user` stream.",
    ),
    "GET /web/public/local": page(
      "The local timeline in the web client",
      "`GET /api/v1/timelines/public?local=true` (20 posts), within the operator's live feed access; live through `public:local`.",
    ),
    "GET /web/public": page(
      "The federated timeline in the web client",
      "`GET /api/v1/timelines/public` (20 posts), within the operator's live feed access; live through `public`.",
    ),
    "GET /web/tags/:name": page(
      "A hashtag's timeline in the web client",
      "`GET /api/v1/timelines/tag/:hashtag` (20 posts) with a button to follow or unfollow the hashtag through the API; live through `hashtag`.",
      { pathDescriptions: { name: "The hashtag, without `#`" } },
    ),
    "GET /lists": d("The user's lists in the web client", html, {
      description:
        "`GET /api/v1/lists`, with a form creating a list and a button deleting each (their script calls the API).",
      answers: { 302: null },
      ...signedIn,
    }),
    "GET /lists/:id{[0-9]+}": page(
      "A list's timeline in the web client",
      "`GET /api/v1/timelines/list/:id` (20 posts); another user's list is not found. Live through `list`.",
      { answers: { 302: null, 404: html } },
    ),
    "GET /bookmarks": page(
      "The user's bookmarks in the web client",
      "`GET /api/v1/bookmarks` (20 posts); the next page is the API's `Link` (paged by the bookmark).",
    ),
    "GET /favourites": page(
      "The user's favourites in the web client",
      "`GET /api/v1/favourites` (20 posts); the next page is the API's `Link` (paged by the favourite).",
    ),
  },
};
