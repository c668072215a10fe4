import type { Context, Hono } from "hono";
import { z } from "zod";
import { Permission } from "../../../../lib/roles.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as tags from "../../../../services/moderation/tags.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, validate } from "../../../validate.ts";

const READ = requireAdmin(Permission.manageTaxonomies, "admin:read");
const WRITE = requireAdmin(Permission.manageTaxonomies, "admin:write");

/** A switch: a boolean, or empty (null) to go back to the default, as Rails casts "". */
const toggle = z.preprocess((v) => (v === "" || v === null ? null : v), boolish.nullable().optional());

export const updateSchema = z.object({
  display_name: z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().max(200).optional()),
  trendable: toggle,
  usable: toggle,
  listable: toggle,
});

async function one(c: Context<HonoEnv>, tag: tags.AdminTag) {
  const [json] = await tags.adminTagsJson(c.env.ctx, [tag], currentAccount(c).id);
  return c.json(json);
}

/** 1.28 Admin API: hashtags (Manage Taxonomies). */
export function adminTagRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/admin/tags", ...READ, async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 100, 200);
    const rows = await tags.listTags(ctx, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await tags.adminTagsJson(ctx, rows, currentAccount(c).id));
  });

  app.get("/api/v1/admin/tags/:id", ...READ, async (c) => one(c, await tags.findTag(c.env.ctx, c.req.param("id"))));

  app.put("/api/v1/admin/tags/:id", ...WRITE, async (c) => {
    const ctx = c.env.ctx;
    const id = c.req.param("id");
    await tags.findTag(ctx, id);
    const p = validate(updateSchema, await readParams(c));
    const updated = await tags.updateTag(ctx, moderatorOf(currentAccount(c)), id, {
      displayName: p.display_name,
      trendable: p.trendable,
      usable: p.usable,
      listable: p.listable,
    });
    return one(c, updated);
  });
}
