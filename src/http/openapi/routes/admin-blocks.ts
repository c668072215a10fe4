import type { DocArea } from "../types.ts";

/** Admin API: e-mail domain, canonical e-mail and IP blocks. */
export const adminBlockDocs: DocArea = {
  tag: "Admin",
  routes: {},
};
