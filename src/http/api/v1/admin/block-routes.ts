import type { Hono } from "hono";
import { z } from "zod";
import { Permission } from "../../../../lib/roles.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import {
  canonicalEmailBlockJson,
  emailDomainBlocksJson,
  ipBlockJson,
} from "../../../../services/moderation/block-views.ts";
import * as ip from "../../../../services/moderation/ip-blocks.ts";
import * as blocks from "../../../../services/moderation/sign-up-blocks.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, intish, requireParam, validate } from "../../../validate.ts";

const P = Permission.manageBlocks;
const guards = (resource: string) =>
  [requireAdmin(P, `admin:read:${resource}`), requireAdmin(P, `admin:write:${resource}`)] as const;
const [READ_EMAIL, WRITE_EMAIL] = guards("email_domain_blocks");
const [READ_CANONICAL, WRITE_CANONICAL] = guards("canonical_email_blocks");
const [READ_IP, WRITE_IP] = guards("ip_blocks");

/** A string parameter; JSON numbers are taken as their text, null as absent, anything else is refused (422). */
const str = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v === null ? undefined : v),
  z.string().optional(),
);
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

export const emailDomainBlockSchema = z.object({ domain: str, allow_with_approval: optional(boolish) });
export const canonicalEmailBlockSchema = z.object({ email: str, canonical_email_hash: str });
export const canonicalTestSchema = z.object({ email: str });
export const ipBlockSchema = z.object({
  ip: str,
  severity: str,
  comment: str,
  expires_in: z.preprocess(
    (v) => (v === "" ? null : v),
    intish.pipe(z.number().min(0, "must be a number of seconds")).nullable().optional(),
  ),
});

/** 1.28 Admin API: e-mail domain blocks, canonical e-mail blocks and IP blocks (Manage Blocks). */
export function adminBlockRoutes(app: Hono<HonoEnv>): void {
  // E-mail domain blocks.
  app.get("/api/v1/admin/email_domain_blocks", ...READ_EMAIL, async (c) => {
    const page = pageParams(c, 100, 200);
    const rows = await blocks.listEmailDomainBlocks(c.env.ctx, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await emailDomainBlocksJson(c.env.ctx, rows));
  });
  app.get("/api/v1/admin/email_domain_blocks/:id", ...READ_EMAIL, async (c) => {
    const block = await blocks.findEmailDomainBlock(c.env.ctx, c.req.param("id"));
    return c.json((await emailDomainBlocksJson(c.env.ctx, [block]))[0]);
  });
  app.post("/api/v1/admin/email_domain_blocks", ...WRITE_EMAIL, async (c) => {
    const p = validate(emailDomainBlockSchema, await readParams(c));
    const block = await blocks.createEmailDomainBlock(c.env.ctx, moderatorOf(currentAccount(c)), {
      domain: p.domain ?? "",
      allowWithApproval: p.allow_with_approval ?? false,
    });
    return c.json((await emailDomainBlocksJson(c.env.ctx, [block]))[0]);
  });
  app.delete("/api/v1/admin/email_domain_blocks/:id", ...WRITE_EMAIL, async (c) => {
    const block = await blocks.findEmailDomainBlock(c.env.ctx, c.req.param("id"));
    await blocks.destroyEmailDomainBlock(c.env.ctx, moderatorOf(currentAccount(c)), block);
    return c.json({});
  });

  // Canonical e-mail blocks.
  app.get("/api/v1/admin/canonical_email_blocks", ...READ_CANONICAL, async (c) => {
    const page = pageParams(c, 100, 200);
    const rows = await blocks.listCanonicalEmailBlocks(c.env.ctx, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(rows.map(canonicalEmailBlockJson));
  });
  app.post("/api/v1/admin/canonical_email_blocks/test", ...READ_CANONICAL, async (c) => {
    const p = validate(canonicalTestSchema, await readParams(c));
    const email = requireParam(p.email, "email");
    return c.json((await blocks.canonicalEmailBlocksMatching(c.env.ctx, email)).map(canonicalEmailBlockJson));
  });
  app.get("/api/v1/admin/canonical_email_blocks/:id", ...READ_CANONICAL, async (c) =>
    c.json(canonicalEmailBlockJson(await blocks.findCanonicalEmailBlock(c.env.ctx, c.req.param("id")))),
  );
  app.post("/api/v1/admin/canonical_email_blocks", ...WRITE_CANONICAL, async (c) => {
    const p = validate(canonicalEmailBlockSchema, await readParams(c));
    const block = await blocks.createCanonicalEmailBlock(c.env.ctx, moderatorOf(currentAccount(c)), {
      email: p.email,
      canonicalEmailHash: p.canonical_email_hash,
    });
    return c.json(canonicalEmailBlockJson(block));
  });
  app.delete("/api/v1/admin/canonical_email_blocks/:id", ...WRITE_CANONICAL, async (c) => {
    const block = await blocks.findCanonicalEmailBlock(c.env.ctx, c.req.param("id"));
    await blocks.destroyCanonicalEmailBlock(c.env.ctx, moderatorOf(currentAccount(c)), block);
    return c.json({});
  });

  // IP blocks.
  app.get("/api/v1/admin/ip_blocks", ...READ_IP, async (c) => {
    const page = pageParams(c, 100, 200);
    const rows = await ip.listIpBlocks(c.env.ctx, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(rows.map(ipBlockJson));
  });
  app.get("/api/v1/admin/ip_blocks/:id", ...READ_IP, async (c) =>
    c.json(ipBlockJson(await ip.findIpBlock(c.env.ctx, c.req.param("id")))),
  );
  app.post("/api/v1/admin/ip_blocks", ...WRITE_IP, async (c) => {
    const p = validate(ipBlockSchema, await readParams(c));
    const block = await ip.createIpBlock(c.env.ctx, moderatorOf(currentAccount(c)), {
      ip: p.ip,
      severity: p.severity,
      comment: p.comment,
      expiresIn: p.expires_in,
    });
    return c.json(ipBlockJson(block));
  });
  app.put("/api/v1/admin/ip_blocks/:id", ...WRITE_IP, async (c) => {
    const block = await ip.findIpBlock(c.env.ctx, c.req.param("id"));
    const p = validate(ipBlockSchema, await readParams(c));
    const changed = await ip.updateIpBlock(c.env.ctx, moderatorOf(currentAccount(c)), block, {
      ip: p.ip,
      severity: p.severity,
      comment: p.comment,
      expiresIn: p.expires_in,
    });
    return c.json(ipBlockJson(changed));
  });
  app.delete("/api/v1/admin/ip_blocks/:id", ...WRITE_IP, async (c) => {
    const block = await ip.findIpBlock(c.env.ctx, c.req.param("id"));
    await ip.destroyIpBlock(c.env.ctx, moderatorOf(currentAccount(c)), block);
    return c.json({});
  });
}
