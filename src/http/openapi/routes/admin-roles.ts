import type { DocArea } from "../types.ts";

/** Admin API: roles, role assignment and the action log (Gannet extensions). */
export const adminRoleDocs: DocArea = {
  tag: "Admin",
  routes: {},
};
