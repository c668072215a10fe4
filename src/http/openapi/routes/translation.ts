import type { DocArea } from "../types.ts";

/** Translation. */
export const translationDocs: DocArea = {
  tag: "Translation",
  description: "Translating posts through the configured backend",
  routes: {},
};
