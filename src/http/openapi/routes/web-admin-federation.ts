import type { DocArea } from "../types.ts";

/** The web side's admin-federation pages (src/http/web/admin/...). */
export const webAdminFederationDocs: DocArea = {
  tag: "Web: moderation panel",
  description: "The moderation panel's pages (docs/web-admin.md)",
  routes: {},
};
