import type { DocArea } from "../types.ts";

/** Admin API: dashboard measures, dimensions, retention, and hashtags. */
export const adminDashboardDocs: DocArea = {
  tag: "Admin",
  routes: {},
};
