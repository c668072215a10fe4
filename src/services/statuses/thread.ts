import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { filterVisible, type ViewerId } from "./views.ts";

/** Mastodon's context limits: anonymous readers get a bounded thread, signed-in ones nearly all of it. */
const ANONYMOUS = { ancestors: 40, descendants: 60, depth: 20 };
const SIGNED_IN = { ancestors: 4096, descendants: 4096, depth: 4096 };

/** `GET /:id/context`: visible ancestors (oldest first) and descendants (depth first, oldest first). */
export async function statusContext(
  ctx: AppContext,
  status: Status,
  viewerId: ViewerId,
): Promise<{ ancestors: Status[]; descendants: Status[] }> {
  const limits = viewerId === undefined ? ANONYMOUS : SIGNED_IN;
  const repo = ctx.repos.statuses;
  const ancestorIds = status.inReplyToId ? await repo.ancestorIds(status.inReplyToId, limits.ancestors) : [];
  const rows = await repo.descendantRows(status.id, limits.depth, limits.descendants);
  const loaded = new Map(
    (await repo.getByIds([...ancestorIds, ...rows.map((r) => r.id)])).map((s) => [s.id, s] as const),
  );
  const visible = new Set((await filterVisible(ctx, [...loaded.values()], viewerId)).map((s) => s.id));
  const ancestors = ancestorIds.reverse().flatMap((id) => (visible.has(id) ? [loaded.get(id) as Status] : []));
  const children = new Map<string, string[]>();
  for (const r of rows) children.set(r.inReplyToId, [...(children.get(r.inReplyToId) ?? []), r.id]);
  const order: string[] = [];
  const walk = (id: string): void => {
    for (const child of children.get(id) ?? []) {
      order.push(child);
      walk(child);
    }
  };
  walk(status.id);
  const descendants = order.flatMap((id) => (visible.has(id) ? [loaded.get(id) as Status] : []));
  return { ancestors, descendants };
}
