import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { gone, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { filterVisible, isVisible, type ViewerId } from "./views.ts";

/** The status `id` if the viewer may see it: 404 when missing or hidden, 410 when deleted. */
export async function findVisibleStatus(ctx: AppContext, id: string, viewerId: ViewerId): Promise<Status> {
  if (!isId(id)) throw notFound();
  const status = await ctx.repos.statuses.getById(id);
  if (!status) throw notFound();
  if (status.deletedAt !== null) throw gone();
  if (!(await isVisible(ctx, status, viewerId))) throw notFound();
  return status;
}

/** The status as stored (deleted or not), or undefined. */
export async function findStatus(ctx: AppContext, id: string): Promise<Status | undefined> {
  if (!isId(id)) return undefined;
  return ctx.repos.statuses.getById(id);
}

/**
 * The statuses among `ids` that the viewer may see, in the order asked for; an id that is not one,
 * or names nothing, is passed over (`GET /api/v1/statuses?id[]=`).
 */
export async function visibleStatusesByIds(
  ctx: AppContext,
  ids: readonly string[],
  viewerId: ViewerId,
): Promise<Status[]> {
  const found = new Map((await ctx.repos.statuses.getByIds(ids.filter(isId))).map((s) => [s.id, s]));
  const wanted = ids.flatMap((id) => found.get(id) ?? []);
  return filterVisible(ctx, wanted, viewerId, { keep: "all" });
}
