import type { Hono } from "hono";
import { z } from "zod";
import { isId } from "../../../../lib/ids.ts";
import { accountsJson } from "../../../../services/accounts/views.ts";
import * as blocks from "../../../../services/relationships/blocks-mutes.ts";
import * as domainBlocks from "../../../../services/relationships/domain-blocks.ts";
import { relationshipsWithExisting } from "../../../../services/relationships/relationships.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, intish, validate } from "../../../validate.ts";

/** Optional parameter: clients send "" or null for "not given". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

export const muteSchema = z.object({
  notifications: optional(boolish),
  duration: optional(
    intish.pipe(
      z
        .number()
        .min(0, "must be greater than or equal to 0")
        .max(2_147_483_647, "must be less than or equal to 2147483647"),
    ),
  ),
});

export const relationshipsSchema = z.object({ with_suspended: optional(boolish) });

/** Blocks and mutes of accounts and of domains, the lists of them, and Relationships. */
export function relationshipRoutes(app: Hono<HonoEnv>): void {
  app.post("/api/v1/accounts/:id{[0-9]+}/block", requireUser("write:blocks"), async (c) =>
    c.json(await blocks.block(c.env.ctx, currentAccount(c), c.req.param("id"))),
  );
  app.post("/api/v1/accounts/:id{[0-9]+}/unblock", requireUser("write:blocks"), async (c) =>
    c.json(await blocks.unblock(c.env.ctx, currentAccount(c), c.req.param("id"))),
  );
  app.post("/api/v1/accounts/:id{[0-9]+}/mute", requireUser("write:mutes"), async (c) => {
    const p = validate(muteSchema, await readParams(c));
    const opts = { notifications: p.notifications ?? true, duration: p.duration ?? 0 };
    return c.json(await blocks.mute(c.env.ctx, currentAccount(c), c.req.param("id"), opts));
  });
  app.post("/api/v1/accounts/:id{[0-9]+}/unmute", requireUser("write:mutes"), async (c) =>
    c.json(await blocks.unmute(c.env.ctx, currentAccount(c), c.req.param("id"))),
  );

  app.get("/api/v1/blocks", requireUser("read:blocks"), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 40, 80);
    const { rows, accounts } = await blocks.blockedAccountsPage(ctx, currentAccount(c).id, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await accountsJson(ctx, accounts));
  });

  app.get("/api/v1/mutes", requireUser("read:mutes"), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 40, 80);
    const { rows, muted } = await blocks.mutedAccountsPage(ctx, currentAccount(c).id, page);
    const json = await accountsJson(
      ctx,
      muted.map((x) => x.account),
    );
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(json.map((a, i) => ({ ...a, mute_expires_at: muted[i].expiresAt })));
  });

  app.get("/api/v1/domain_blocks", requireUser("read:blocks"), async (c) => {
    const page = pageParams(c, 100, 200);
    const rows = await domainBlocks.domainBlocksPage(c.env.ctx, currentAccount(c), page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(rows.map((r) => r.domain));
  });
  app.post("/api/v1/domain_blocks", requireUser("write:blocks"), async (c) => {
    const domain = domainBlocks.domainParam((await readParams(c)).domain);
    await domainBlocks.blockDomain(c.env.ctx, currentAccount(c), domain);
    return c.json({});
  });
  app.delete("/api/v1/domain_blocks", requireUser("write:blocks"), async (c) => {
    const domain = domainBlocks.domainParam((await readParams(c)).domain);
    await domainBlocks.unblockDomain(c.env.ctx, currentAccount(c), domain);
    return c.json({});
  });
  app.get("/api/v1/domain_blocks/preview", requireUser("write:blocks"), async (c) => {
    const domain = domainBlocks.domainParam((await readParams(c)).domain);
    return c.json(await domainBlocks.previewDomainBlock(c.env.ctx, currentAccount(c), domain));
  });

  /** The existing accounts among `id[]`, in the order asked; suspended ones only with `with_suspended`. */
  app.get("/api/v1/accounts/relationships", requireUser("read:follows"), async (c) => {
    const ctx = c.env.ctx;
    const params = await readParams(c);
    const p = validate(relationshipsSchema, { with_suspended: params.with_suspended });
    const ids = [...new Set((asArray(params.id) ?? []).filter(isId))];
    return c.json(await relationshipsWithExisting(ctx, currentAccount(c).id, ids, p.with_suspended === true));
  });
}
