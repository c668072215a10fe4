import type { DocArea } from "../types.ts";

/** Quote posts. */
export const quoteDocs: DocArea = {
  tag: "Quotes",
  description: "Quote posts: quotes of a post, revoking, who may quote",
  routes: {},
};
