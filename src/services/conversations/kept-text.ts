import type { AppContext } from "../../context.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { keptPageText, type PageText } from "../notifications/kept-text.ts";
import { conversationsPage } from "./manage.ts";
import { conversationsJson } from "./views.ts";

/**
 * `GET /api/v1/conversations`: the page's cursors (each conversation's last status, for the Link
 * header) and its JSON as `conversationsJson` makes it, kept while nothing it may show changed
 * (notifications/kept-text.ts `keptPageText`: the conversations tables are under the same stamp).
 */
export function conversationsText(ctx: AppContext, viewerId: string, window: IdWindow): Promise<PageText> {
  const key = `c ${viewerId} ${window.maxId ?? ""} ${window.sinceId ?? ""} ${window.minId ?? ""} ${window.limit}`;
  return keptPageText(ctx, key, viewerId, async () => {
    const rows = await conversationsPage(ctx, viewerId, window);
    return {
      count: rows.length,
      firstId: rows[0]?.lastStatusId,
      lastId: rows.at(-1)?.lastStatusId,
      body: Buffer.from(JSON.stringify(await conversationsJson(ctx, rows, viewerId))),
      keepable: true,
    };
  });
}
