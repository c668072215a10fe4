import type { DocArea } from "../types.ts";

/** Admin API: account listings, one account, approve, reject, enable. */
export const adminAccountDocs: DocArea = {
  tag: "Admin",
  routes: {},
};
