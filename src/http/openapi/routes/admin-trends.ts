import type { DocArea } from "../types.ts";

/** The admin trends review. */
export const adminTrendDocs: DocArea = {
  tag: "Admin: trends",
  description: "Reviewing trending hashtags, posts, links and link publishers",
  routes: {},
};
