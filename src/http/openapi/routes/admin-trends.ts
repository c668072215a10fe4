import { z } from "zod";
import { intish } from "../../validate.ts";
import type { DocArea } from "../types.ts";
import { d, pageOf } from "./common.ts";

const offsetPage = (def: number) =>
  z.object({
    limit: intish.optional().describe(`How many (default ${def}, at most ${def * 2})`),
    offset: intish.optional().describe("How many to skip; the `Link` header names the next and previous pages"),
  });

const admin = { errors: [400], validates: false };

/** `approve` and `reject` of one kind of candidate. */
function decisions(base: string, what: string, entity: string): DocArea["routes"] {
  return {
    [`POST ${base}/:id/approve`]: d(`Let ${what} trend publicly (written to the action log)`, entity),
    [`POST ${base}/:id/reject`]: d(`Keep ${what} out of the public trends (written to the action log)`, entity),
  };
}

/** The admin trends review. */
export const adminTrendDocs: DocArea = {
  tag: "Admin: trends",
  description: "Reviewing trending hashtags, posts, links and link publishers",
  routes: {
    "GET /api/v1/admin/trends/tags": d("Every scored hashtag, allowed or not, best first", "AdminTag[]", {
      query: offsetPage(10),
      ...admin,
    }),
    "GET /api/v1/admin/trends/statuses": d("Every scored post, allowed or not, best first", "AdminTrendsStatus[]", {
      query: offsetPage(20),
      ...admin,
    }),
    "GET /api/v1/admin/trends/links": d("Every scored link, allowed or not, best first", "AdminTrendsLink[]", {
      query: offsetPage(10),
      ...admin,
    }),
    "GET /api/v1/admin/trends/links/publishers": pageOf(
      "The sites links come from, newest first",
      "AdminPreviewCardProvider",
      100,
      200,
    ),
    ...decisions("/api/v1/admin/trends/tags", "a hashtag", "AdminTag"),
    ...decisions("/api/v1/admin/trends/statuses", "a public post", "AdminTrendsStatus"),
    ...decisions("/api/v1/admin/trends/links", "a link", "AdminTrendsLink"),
    ...decisions(
      "/api/v1/admin/trends/links/publishers",
      "the links of a publisher without a decision of their own",
      "AdminPreviewCardProvider",
    ),
  },
};
