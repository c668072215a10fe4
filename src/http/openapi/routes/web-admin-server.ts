import type { DocArea } from "../types.ts";

/** The web side's admin-server pages (src/http/web/admin/...). */
export const webAdminServerDocs: DocArea = {
  tag: "Web: moderation panel",
  description: "The moderation panel's pages (docs/web-admin.md)",
  routes: {},
};
