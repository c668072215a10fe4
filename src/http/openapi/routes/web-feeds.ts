import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

const pub = { auth: "none" as const, validates: false };
const rss = {
  schema: { type: "string" },
  type: "application/rss+xml",
  description: "An RSS 2.0 feed (cached publicly for a minute)",
};
const oembed = {
  schema: {
    type: "object",
    required: [
      "type",
      "version",
      "author_name",
      "author_url",
      "provider_name",
      "provider_url",
      "cache_age",
      "html",
      "width",
    ],
    properties: {
      type: { const: "rich" },
      version: { const: "1.0" },
      author_name: { type: "string" },
      author_url: { type: "string" },
      provider_name: { type: "string" },
      provider_url: { type: "string" },
      cache_age: { type: "integer" },
      html: { type: "string", description: "An iframe of the post's embed page (`/@user/:id/embed`)" },
      width: { type: "integer" },
      height: { type: ["integer", "null"] },
    },
  },
  description: "Mastodon's oEmbed answer",
};
const limit = z.string().optional().describe("Items, default 20, at most 200");
const form = { authenticity_token: z.string().describe("The page's CSRF token") };
const intent = z.enum(["follow", "unfollow", "favourite", "unfavourite", "reblog", "unreblog", "reply"]);

/** The web side's feeds area (src/http/web/feeds): RSS, oEmbed and remote interaction. */
export const webFeedDocs: DocArea = {
  tag: "Web",
  routes: {
    "GET /:feed{@[A-Za-z0-9_]+\\.rss}": d("A local profile's public posts as RSS", rss, {
      description: "No boosts, no replies to others, no unlisted posts. 404 for an account the public may not see.",
      query: z.object({ tag: z.string().optional().describe("Only posts with this hashtag"), limit }),
      pathDescriptions: { feed: "`@username.rss`" },
      ...pub,
    }),
    "GET /tags/:feed{[^/]+\\.rss}": d("Public posts with a hashtag as RSS", rss, {
      description:
        "Local and remote public posts (never unlisted, private or direct). 404 for an unknown or unusable tag.",
      query: z.object({ local: z.string().optional().describe("`true`: local posts only"), limit }),
      pathDescriptions: { feed: "`NAME.rss`" },
      ...pub,
    }),
    "GET /api/oembed": d("oEmbed for a local post", oembed, {
      query: z.object({
        url: z.string().describe("The post's page URL or URI"),
        maxwidth: z.string().optional().describe("Width of the iframe (default 400)"),
        maxheight: z.string().optional().describe("Height of the iframe"),
      }),
      errors: [400, 404],
      ...pub,
    }),
    "GET /remote_interaction": d("Follow, reply, favourite or boost from another server", html, {
      description: "Asks the visitor's handle; a signed-in local user is redirected to `/authorize_interaction`.",
      query: z.object({
        uri: z.string().describe("A known account's or post's URI"),
        type: z.enum(["follow", "reply", "favourite", "reblog"]).optional(),
      }),
      answers: { 302: null },
      errors: [404],
      ...pub,
    }),
    "POST /remote_interaction": d("Send the visitor to their server's subscribe template", null, {
      status: 303,
      body: z.object({
        ...form,
        uri: z.string(),
        type: z.string().optional(),
        acct: z.string().describe("user@server"),
      }),
      answers: { 404: html, 422: html, 429: html, 502: html },
      ...pub,
    }),
    "GET /authorize_interaction": d("Act on a local or remote account or post (signed in)", html, {
      description: "The target of this server's subscribe template. Without a session, redirects to the sign-in page.",
      query: z.object({ uri: z.string().describe("An `acct:` URI, a handle or an http(s) URL") }),
      answers: { 302: null, 400: html, 404: html },
      ...pub,
    }),
    "POST /authorize_interaction": d("Follow, favourite, boost or reply (signed in)", null, {
      status: 303,
      body: z.object({
        ...form,
        uri: z.string(),
        intent,
        status: z.string().optional().describe("The reply's text"),
        spoiler_text: z.string().optional(),
        visibility: z.enum(["public", "unlisted", "private", "direct"]).optional(),
      }),
      answers: { 302: null, 400: html, 404: html, 422: html, 429: html },
      ...pub,
    }),
  },
};
