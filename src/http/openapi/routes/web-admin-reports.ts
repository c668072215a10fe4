import type { DocArea } from "../types.ts";

/** The web side's admin-reports pages (src/http/web/admin/...). */
export const webAdminReportDocs: DocArea = {
  tag: "Web: moderation panel",
  description: "The moderation panel's pages (docs/web-admin.md)",
  routes: {},
};
