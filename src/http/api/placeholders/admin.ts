import { Permission } from "../../../lib/roles.ts";
import { admin, get, list, none, page, post } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

const P = Permission;

const readTaxonomies = admin(P.manageTaxonomies, "admin:read");
const writeTaxonomies = admin(P.manageTaxonomies, "admin:write");

/** 1.28 Admin API: the trends moderation endpoints (issue 17) are all that is left. Lists are empty; single records cannot exist yet. */
export const adminRows: Placeholder[] = [
  get("/api/v1/admin/trends/tags", readTaxonomies, list()),
  get("/api/v1/admin/trends/statuses", readTaxonomies, list()),
  get("/api/v1/admin/trends/links", readTaxonomies, list()),
  post("/api/v1/admin/trends/tags/:id/approve", writeTaxonomies, none()),
  post("/api/v1/admin/trends/tags/:id/reject", writeTaxonomies, none()),
  post("/api/v1/admin/trends/statuses/:id/approve", writeTaxonomies, none()),
  post("/api/v1/admin/trends/statuses/:id/reject", writeTaxonomies, none()),
  post("/api/v1/admin/trends/links/:id/approve", writeTaxonomies, none()),
  post("/api/v1/admin/trends/links/:id/reject", writeTaxonomies, none()),
  get("/api/v1/admin/trends/links/publishers", readTaxonomies, page(100)),
  post("/api/v1/admin/trends/links/publishers/:id/approve", writeTaxonomies, none()),
  post("/api/v1/admin/trends/links/publishers/:id/reject", writeTaxonomies, none()),
];
