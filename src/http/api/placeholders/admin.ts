import { Permission } from "../../../lib/roles.ts";
import { admin, del, get, json, list, none, page, post, put, unavailable } from "./dsl.ts";
import type { Guard, Placeholder } from "./types.ts";

const P = Permission;

const readAccounts = admin(P.manageUsers, "admin:read:accounts");
const writeAccounts = admin(P.manageUsers, "admin:write:accounts");
const ACCOUNT = { existing: "id" };

/** Read and write guards of one admin resource family. */
const family = (permission: number, resource: string): [Guard, Guard] => [
  admin(permission, `admin:read:${resource}`),
  admin(permission, `admin:write:${resource}`),
];
const [readEmailBlocks, writeEmailBlocks] = family(P.manageBlocks, "email_domain_blocks");
const [readCanonical, writeCanonical] = family(P.manageBlocks, "canonical_email_blocks");
const [readIpBlocks, writeIpBlocks] = family(P.manageBlocks, "ip_blocks");
const readTaxonomies = admin(P.manageTaxonomies, "admin:read");
const writeTaxonomies = admin(P.manageTaxonomies, "admin:write");
const dashboard = admin(P.viewDashboard, "admin:read");

/** 1.28 Admin API. Lists are empty; single records cannot exist yet; actions cannot work yet. */
export const adminRows: Placeholder[] = [
  get("/api/v1/admin/accounts", readAccounts, page(100)),
  get("/api/v2/admin/accounts", readAccounts, page(100)),
  get("/api/v1/admin/accounts/:id", readAccounts, none(), { note: "404 (the Admin::Account view is not built yet)" }),
  del("/api/v1/admin/accounts/:id", admin(P.deleteUserData, "admin:write:accounts"), unavailable(), ACCOUNT),
  post(
    "/api/v1/admin/accounts/:id/action",
    admin(P.manageUsers | P.manageReports, "admin:write:accounts"),
    unavailable(),
    ACCOUNT,
  ),
  post("/api/v1/admin/accounts/:id/approve", writeAccounts, unavailable(), ACCOUNT),
  post("/api/v1/admin/accounts/:id/reject", writeAccounts, unavailable(), ACCOUNT),
  post("/api/v1/admin/accounts/:id/enable", writeAccounts, unavailable(), ACCOUNT),
  post("/api/v1/admin/accounts/:id/unsilence", writeAccounts, unavailable(), ACCOUNT),
  post("/api/v1/admin/accounts/:id/unsuspend", writeAccounts, unavailable(), ACCOUNT),
  post("/api/v1/admin/accounts/:id/unsensitive", writeAccounts, unavailable(), ACCOUNT),

  get("/api/v1/admin/email_domain_blocks", readEmailBlocks, page(100)),
  get("/api/v1/admin/email_domain_blocks/:id", readEmailBlocks, none()),
  post("/api/v1/admin/email_domain_blocks", writeEmailBlocks, unavailable()),
  del("/api/v1/admin/email_domain_blocks/:id", writeEmailBlocks, none()),
  get("/api/v1/admin/canonical_email_blocks", readCanonical, page(100)),
  get("/api/v1/admin/canonical_email_blocks/:id", readCanonical, none()),
  post("/api/v1/admin/canonical_email_blocks/test", readCanonical, list(), { note: "`[]` (no block matches)" }),
  post("/api/v1/admin/canonical_email_blocks", writeCanonical, unavailable()),
  del("/api/v1/admin/canonical_email_blocks/:id", writeCanonical, none()),
  get("/api/v1/admin/ip_blocks", readIpBlocks, page(100)),
  get("/api/v1/admin/ip_blocks/:id", readIpBlocks, none()),
  post("/api/v1/admin/ip_blocks", writeIpBlocks, unavailable()),
  put("/api/v1/admin/ip_blocks/:id", writeIpBlocks, none()),
  del("/api/v1/admin/ip_blocks/:id", writeIpBlocks, none()),

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
  get("/api/v1/admin/tags", readTaxonomies, page(100)),
  get("/api/v1/admin/tags/:id", readTaxonomies, none()),
  put("/api/v1/admin/tags/:id", writeTaxonomies, none()),

  post("/api/v1/admin/measures", dashboard, json([]), { note: "`[]` (no measure computed yet)" }),
  post("/api/v1/admin/dimensions", dashboard, json([]), { note: "`[]` (no dimension computed yet)" }),
  post("/api/v1/admin/retention", dashboard, json([]), { note: "`[]` (no cohort computed yet)" }),
];
