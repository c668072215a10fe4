import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

/** The web side's client-compose pages (src/http/web/client/compose.ts). */
export const webClientComposeDocs: DocArea = {
  tag: "Web client",
  description: "The web client's pages (docs/web-client.md)",
  routes: {
    "GET /web/compose": d("The compose box on a page of its own (posts written there are listed below it)", html, {
      description:
        "For small screens. Without a session, redirects to the sign-in page; 403 when the session's API token was revoked. Posting goes through `POST /api/v1/statuses` from the page's script (docs/web-client-compose.md).",
      answers: { 302: null, 403: html },
      auth: "none",
    }),
  },
};
