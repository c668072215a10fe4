import type { Context, Hono } from "hono";
import { Permission } from "../../../../lib/roles.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as trends from "../../../../services/moderation/trends.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader, setOffsetLinkHeader } from "../../../pagination.ts";
import type { HonoEnv } from "../../../types.ts";
import { offsetParam } from "../../placeholders/query.ts";

const READ = requireAdmin(Permission.manageTaxonomies, "admin:read");
const WRITE = requireAdmin(Permission.manageTaxonomies, "admin:write");

/** `limit` of an offset-paged list: `def` by default, at most twice that; 400 when not a count. */
function offsetPage(c: Context<HonoEnv>, def: number): { limit: number; offset: number } {
  return { limit: pageParams(c, def).limit, offset: offsetParam(c) };
}

type Review = typeof trends.reviewTag;

/** `POST <base>/:id/approve` and `/reject` through `review`. */
function decisions(app: Hono<HonoEnv>, base: string, review: Review): void {
  for (const decision of ["approve", "reject"] as const) {
    app.post(`${base}/:id/${decision}`, ...WRITE, async (c) => {
      const by = moderatorOf(currentAccount(c));
      return c.json(await review(c.env.ctx, by, c.req.param("id"), decision));
    });
  }
}

/**
 * 1.28 Admin API: trends review (Manage Taxonomies). The lists hold every scored candidate,
 * allowed or not, best first; approve and reject decide whether an item may trend publicly.
 */
export function adminTrendRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/admin/trends/tags", ...READ, async (c) => {
    const page = offsetPage(c, 10);
    const json = await trends.tagCandidatesJson(c.env.ctx, currentAccount(c).id, page.limit, page.offset);
    setOffsetLinkHeader(c, page.limit, page.offset, json.length);
    return c.json(json);
  });

  app.get("/api/v1/admin/trends/statuses", ...READ, async (c) => {
    const page = offsetPage(c, 20);
    const json = await trends.statusCandidatesJson(c.env.ctx, currentAccount(c).id, page.limit, page.offset);
    setOffsetLinkHeader(c, page.limit, page.offset, json.length);
    return c.json(json);
  });

  // Registered before `/links/:id/...` so that `publishers` is never taken for an id.
  app.get("/api/v1/admin/trends/links/publishers", ...READ, async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 100, 200);
    const rows = await trends.publishersPage(ctx, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(rows.map((p) => trends.publisherJson(ctx, p)));
  });
  decisions(app, "/api/v1/admin/trends/links/publishers", trends.reviewPublisher);

  app.get("/api/v1/admin/trends/links", ...READ, async (c) => {
    const page = offsetPage(c, 10);
    const json = await trends.linkCandidatesJson(c.env.ctx, page.limit, page.offset);
    setOffsetLinkHeader(c, page.limit, page.offset, json.length);
    return c.json(json);
  });

  decisions(app, "/api/v1/admin/trends/tags", trends.reviewTag);
  decisions(app, "/api/v1/admin/trends/statuses", trends.reviewStatus);
  decisions(app, "/api/v1/admin/trends/links", trends.reviewLink);
}
