import { z } from "zod";
import { intish } from "../../validate.ts";
import type { DocArea, RouteDoc } from "../types.ts";
import { d, pageOf } from "./common.ts";

/** `limit` and `offset` as trends/routes.ts reads them (pageParams and offsetParam). */
const offsetPage = (def: number, max: number) =>
  z.object({
    limit: intish.optional().describe(`How many results (default ${def}; more than ${max} is taken as ${max})`),
    offset: intish.optional().describe("How many results to skip"),
  });

const LANGUAGES =
  "Only items in the reader's languages or without a language: a signed-in reader's chosen, interface and posting languages, the `Accept-Language` header, and the server's DEFAULT_LOCALE.";

const trends = (summary: string, entity: string, def: number, max: number, more: Partial<RouteDoc> = {}): RouteDoc =>
  d(summary, `${entity}[]`, {
    auth: "optional",
    query: offsetPage(def, max),
    errors: [400],
    description:
      `Ranked, only what may trend publicly (see docs/trends.md). Offset pagination with a \`Link\` header (\`next\` while pages are full, \`prev\` always). ${more.description ?? ""}`.trim(),
    ...Object.fromEntries(Object.entries(more).filter(([k]) => k !== "description")),
  });

const link = z.object({ url: z.string().describe("The link's URL, as its preview card has it") });

/** Trends and the link timeline. */
export const trendDocs: DocArea = {
  tag: "Trends",
  description: "Trending hashtags, posts and links; the link timeline",
  routes: {
    "GET /api/v1/trends/tags": trends("Trending hashtags", "Tag", 10, 20, {
      description: "Hashtags trend in every language.",
    }),
    "GET /api/v1/trends": trends("Trending hashtags (the path before Mastodon 3.5)", "Tag", 10, 20, {
      deprecated: true,
    }),
    "GET /api/v1/trends/statuses": trends("Trending posts", "Status", 20, 40, { description: LANGUAGES }),
    "GET /api/v1/trends/links": trends("Trending links", "TrendsLink", 10, 20, { description: LANGUAGES }),
    "GET /api/v1/timelines/link": pageOf("Public posts sharing a trending link", "Status", 20, 40, {
      query: link,
      auth: "optional",
      tags: ["Timelines"],
      description: "404 unless the link is trending and may be shown publicly (Mastodon 4.3).",
    }),
  },
};
