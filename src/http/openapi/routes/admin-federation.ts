import type { DocArea } from "../types.ts";

/** Admin API: domain blocks and domain allows. */
export const adminFederationDocs: DocArea = {
  tag: "Admin",
  routes: {},
};
