import type { Hono } from "hono";
import { z } from "zod";
import { Permission } from "../../../../lib/roles.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as domains from "../../../../services/moderation/domain-blocks.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, text, validate } from "../../../validate.ts";

const READ_BLOCKS = requireAdmin(Permission.manageFederation, "admin:read:domain_blocks");
const WRITE_BLOCKS = requireAdmin(Permission.manageFederation, "admin:write:domain_blocks");
const READ_ALLOWS = requireAdmin(Permission.manageFederation, "admin:read:domain_allows");
const WRITE_ALLOWS = requireAdmin(Permission.manageFederation, "admin:write:domain_allows");

/** An absent or empty parameter leaves the value as it is (or the default). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());
/** A comment: empty clears it. */
const comment = z.preprocess((v) => (v === "" ? null : v), text(10_000).nullable().optional());

/** What a moderator may change on a block (Mastodon's `domain_block_params`). */
export const blockPatchSchema = z.object({
  severity: optional(z.enum(domains.DOMAIN_BLOCK_SEVERITIES as [string, ...string[]], "is not included in the list")),
  reject_media: optional(boolish),
  reject_reports: optional(boolish),
  private_comment: comment,
  public_comment: comment,
  obfuscate: optional(boolish),
});

function toPatch(p: z.infer<typeof blockPatchSchema>): domains.DomainBlockPatch {
  return {
    severity: p.severity as domains.DomainBlockSeverity | undefined,
    rejectMedia: p.reject_media,
    rejectReports: p.reject_reports,
    privateComment: p.private_comment,
    publicComment: p.public_comment,
    obfuscate: p.obfuscate,
  };
}

/** 1.28 Admin API: domain blocks and domain allows (Manage Federation). */
export function adminDomainRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/admin/domain_blocks", ...READ_BLOCKS, async (c) => {
    const page = pageParams(c, 100, 200);
    const rows = await domains.listDomainBlocks(c.env.ctx, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(rows.map(domains.domainBlockJson));
  });

  app.get("/api/v1/admin/domain_blocks/:id", ...READ_BLOCKS, async (c) =>
    c.json(domains.domainBlockJson(await domains.findDomainBlock(c.env.ctx, c.req.param("id")))),
  );

  app.post("/api/v1/admin/domain_blocks", ...WRITE_BLOCKS, async (c) => {
    const ctx = c.env.ctx;
    const params = await readParams(c);
    const p = validate(blockPatchSchema, params);
    const domain = domains.blockDomain(ctx, params.domain);
    const patch = toPatch(p);
    const block = await domains.createDomainBlock(ctx, moderatorOf(currentAccount(c)), {
      domain,
      severity: patch.severity ?? "silence",
      rejectMedia: patch.rejectMedia ?? false,
      rejectReports: patch.rejectReports ?? false,
      privateComment: patch.privateComment ?? null,
      publicComment: patch.publicComment ?? null,
      obfuscate: patch.obfuscate ?? false,
    });
    return c.json(domains.domainBlockJson(block));
  });

  app.put("/api/v1/admin/domain_blocks/:id", ...WRITE_BLOCKS, async (c) => {
    const ctx = c.env.ctx;
    const block = await domains.findDomainBlock(ctx, c.req.param("id"));
    const p = validate(blockPatchSchema, await readParams(c));
    const updated = await domains.updateDomainBlock(ctx, moderatorOf(currentAccount(c)), block, toPatch(p));
    return c.json(domains.domainBlockJson(updated));
  });

  app.delete("/api/v1/admin/domain_blocks/:id", ...WRITE_BLOCKS, async (c) => {
    const ctx = c.env.ctx;
    const block = await domains.findDomainBlock(ctx, c.req.param("id"));
    await domains.destroyDomainBlock(ctx, moderatorOf(currentAccount(c)), block);
    return c.json({});
  });

  app.get("/api/v1/admin/domain_allows", ...READ_ALLOWS, async (c) => {
    const page = pageParams(c, 100, 200);
    const rows = await domains.listDomainAllows(c.env.ctx, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(rows.map(domains.domainAllowJson));
  });

  app.get("/api/v1/admin/domain_allows/:id", ...READ_ALLOWS, async (c) =>
    c.json(domains.domainAllowJson(await domains.findDomainAllow(c.env.ctx, c.req.param("id")))),
  );

  app.post("/api/v1/admin/domain_allows", ...WRITE_ALLOWS, async (c) => {
    const ctx = c.env.ctx;
    const params = await readParams(c);
    const domain = domains.blockDomain(ctx, params.domain);
    const { allow } = await domains.createDomainAllow(ctx, moderatorOf(currentAccount(c)), domain);
    return c.json(domains.domainAllowJson(allow));
  });

  app.delete("/api/v1/admin/domain_allows/:id", ...WRITE_ALLOWS, async (c) => {
    const ctx = c.env.ctx;
    const allow = await domains.findDomainAllow(ctx, c.req.param("id"));
    await domains.destroyDomainAllow(ctx, moderatorOf(currentAccount(c)), allow);
    return c.json({});
  });
}
