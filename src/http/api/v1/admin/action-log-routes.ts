import type { Hono } from "hono";
import { z } from "zod";
import { isId } from "../../../../lib/ids.ts";
import { Permission } from "../../../../lib/roles.ts";
import { actionLogPage } from "../../../../services/moderation/action-log.ts";
import { actionLogsJson } from "../../../../services/moderation/views.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

const READ = requireAdmin(Permission.viewAuditLog, "admin:read");

/** What the list reads: each filter is ignored when empty. */
export const actionLogListSchema = z.object({
  account_id: z.string().optional().describe("Only what this account did"),
  target_type: z
    .string()
    .optional()
    .describe("Only actions on this kind of target: `Account`, `Report`, `UserRole`, ..."),
  target_id: z.string().optional().describe("Only actions on this target"),
});

/** An id filter: ignored when empty; one that is no id matches nothing. */
const idFilter = (v: unknown): string | undefined => {
  if (v === undefined || v === "") return undefined;
  return typeof v === "string" && isId(v) ? v : "0";
};

const textFilter = (v: unknown): string | undefined =>
  v === undefined || v === "" ? undefined : typeof v === "string" ? v : "?";

/**
 * 1.28 Admin API: the action log (a Gannet extension; View Audit Log). Entries are read only:
 * there is no route that changes or deletes one.
 */
export function adminActionLogRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/admin/action_logs", ...READ, async (c) => {
    const ctx = c.env.ctx;
    const params = await readParams(c);
    const page = pageParams(c, 100, 200);
    const rows = await actionLogPage(
      ctx,
      {
        accountId: idFilter(params.account_id),
        targetType: textFilter(params.target_type),
        // Target ids are ids of many tables (and a role's may be -99): compared as given.
        targetId: textFilter(params.target_id),
      },
      page,
    );
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await actionLogsJson(ctx, rows));
  });
}
