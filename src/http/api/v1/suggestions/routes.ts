import type { Hono } from "hono";
import { isId } from "../../../../lib/ids.ts";
import { accountsJson } from "../../../../services/accounts/views.ts";
import {
  directoryAccounts,
  dismissSuggestion,
  suggestions,
  suggestionsJson,
} from "../../../../services/discovery/suggestions.ts";
import { currentAccount, optionalToken, requireUser, viewerAccount } from "../../../middleware/auth.ts";
import { pageParams } from "../../../pagination.ts";
import type { HonoEnv } from "../../../types.ts";
import { offsetParam, truthy } from "../../placeholders/query.ts";

/** Follow suggestions and the profile directory (both paged by `offset`, no Link header). */
export function suggestionRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v2/suggestions", requireUser("read", "read:accounts"), async (c) => {
    const ctx = c.env.ctx;
    const { limit } = pageParams(c, 40, 80);
    const list = await suggestions(ctx, currentAccount(c).id, limit, offsetParam(c));
    return c.json(await suggestionsJson(ctx, list));
  });
  app.get("/api/v1/suggestions", requireUser("read", "read:accounts"), async (c) => {
    const ctx = c.env.ctx;
    const { limit } = pageParams(c, 40, 80);
    const list = await suggestions(ctx, currentAccount(c).id, limit, offsetParam(c));
    return c.json(
      await accountsJson(
        ctx,
        list.map((s) => s.account),
      ),
    );
  });
  app.delete("/api/v1/suggestions/:id", requireUser("read", "write", "write:accounts"), async (c) => {
    const id = c.req.param("id");
    if (isId(id)) await dismissSuggestion(c.env.ctx, currentAccount(c).id, id);
    return c.json({});
  });

  app.get("/api/v1/directory", optionalToken(), async (c) => {
    const ctx = c.env.ctx;
    const { limit } = pageParams(c, 40, 80);
    const order = c.req.query("order") === "new" ? "new" : "active";
    const accounts = await directoryAccounts(ctx, {
      order,
      local: truthy(c.req.query("local")),
      viewerId: viewerAccount(c)?.id,
      limit,
      offset: offsetParam(c),
    });
    return c.json(await accountsJson(ctx, accounts));
  });
}
