import type { Hono } from "hono";
import { z } from "zod";
import {
  cancelScheduledStatus,
  findOwnScheduledStatus,
  listScheduledStatuses,
  parseScheduledAt,
  rescheduleStatus,
  scheduledStatusesJson,
} from "../../../../services/scheduled-statuses/schedule.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { validate } from "../../../validate.ts";

const READ = ["read", "read:statuses"];
const WRITE = ["write", "write:statuses"];

export const updateSchema = z.object({
  scheduled_at: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().max(100).optional()),
});

/** 1.13 Scheduled statuses: the caller's own only (anyone else's is 404). */
export function scheduledStatusRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/scheduled_statuses", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 20, 40);
    const rows = await listScheduledStatuses(ctx, currentAccount(c).id, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await scheduledStatusesJson(ctx, rows));
  });

  app.get("/api/v1/scheduled_statuses/:id", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const row = await findOwnScheduledStatus(ctx, c.req.param("id"), currentAccount(c).id);
    const [json] = await scheduledStatusesJson(ctx, [row]);
    return c.json(json);
  });

  app.put("/api/v1/scheduled_statuses/:id", requireUser(...WRITE), async (c) => {
    const ctx = c.env.ctx;
    const row = await findOwnScheduledStatus(ctx, c.req.param("id"), currentAccount(c).id);
    const p = validate(updateSchema, await readParams(c));
    const updated =
      p.scheduled_at === undefined ? row : await rescheduleStatus(ctx, row, parseScheduledAt(p.scheduled_at));
    const [json] = await scheduledStatusesJson(ctx, [updated]);
    return c.json(json);
  });

  app.delete("/api/v1/scheduled_statuses/:id", requireUser(...WRITE), async (c) => {
    const ctx = c.env.ctx;
    const row = await findOwnScheduledStatus(ctx, c.req.param("id"), currentAccount(c).id);
    await cancelScheduledStatus(ctx, row);
    return c.json({});
  });
}
