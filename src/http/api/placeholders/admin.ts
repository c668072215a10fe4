import { Permission } from "../../../lib/roles.ts";
import { admin, del, get, list, none, page, post, put, unavailable } from "./dsl.ts";
import type { Guard, Placeholder } from "./types.ts";

const P = Permission;

/** Read and write guards of one admin resource family. */
const family = (permission: number, resource: string): [Guard, Guard] => [
  admin(permission, `admin:read:${resource}`),
  admin(permission, `admin:write:${resource}`),
];
const [readDomainBlocks, writeDomainBlocks] = family(P.manageFederation, "domain_blocks");
const [readDomainAllows, writeDomainAllows] = family(P.manageFederation, "domain_allows");
const readTaxonomies = admin(P.manageTaxonomies, "admin:read");
const writeTaxonomies = admin(P.manageTaxonomies, "admin:write");

/** 1.28 Admin API. Lists are empty; single records cannot exist yet; actions cannot work yet. */
export const adminRows: Placeholder[] = [
  get("/api/v1/admin/domain_blocks", readDomainBlocks, page(100)),
  get("/api/v1/admin/domain_blocks/:id", readDomainBlocks, none()),
  post("/api/v1/admin/domain_blocks", writeDomainBlocks, unavailable()),
  put("/api/v1/admin/domain_blocks/:id", writeDomainBlocks, none()),
  del("/api/v1/admin/domain_blocks/:id", writeDomainBlocks, none()),
  get("/api/v1/admin/domain_allows", readDomainAllows, page(100)),
  get("/api/v1/admin/domain_allows/:id", readDomainAllows, none()),
  post("/api/v1/admin/domain_allows", writeDomainAllows, unavailable()),
  del("/api/v1/admin/domain_allows/:id", writeDomainAllows, none()),

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
