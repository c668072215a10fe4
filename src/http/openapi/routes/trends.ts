import type { DocArea } from "../types.ts";

/** Trends and the link timeline. */
export const trendDocs: DocArea = {
  tag: "Trends",
  description: "Trending hashtags, posts and links; the link timeline",
  routes: {},
};
