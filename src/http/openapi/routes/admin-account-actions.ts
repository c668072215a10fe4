import type { DocArea } from "../types.ts";

/** Admin API: moderation actions on accounts and their undoing. */
export const adminAccountActionDocs: DocArea = {
  tag: "Admin",
  routes: {},
};
