import type { Context, Hono } from "hono";
import { accountsJson } from "../../../../services/accounts/views.ts";
import * as actions from "../../../../services/statuses/actions.ts";
import { findVisibleStatus } from "../../../../services/statuses/find.ts";
import { statusInteractorsPage } from "../../../../services/statuses/interactors.ts";
import type { Status, Visibility } from "../../../../services/statuses/types.ts";
import { statusJson } from "../../../../services/statuses/views.ts";
import { currentAccount, currentUser, optionalToken, requireUser, viewerAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { validate } from "../../../validate.ts";
import { reblogSchema } from "./schemas.ts";
import { throttleDeletes, throttleStatuses } from "./throttles.ts";

type Action = (c: Context<HonoEnv>) => Promise<Status>;

/** Favourite, boost, bookmark, thread mute and pin, with their undos; who favourited and boosted. */
export function actionRoutes(app: Hono<HonoEnv>): void {
  const route = (name: string, scope: string, run: Action) => {
    const limit = name === "reblog" ? [throttleStatuses()] : name === "unreblog" ? [throttleDeletes()] : [];
    app.post(`/api/v1/statuses/:id{[0-9]+}/${name}`, requireUser("write", scope), ...limit, async (c) => {
      const status = await run(c);
      return c.json(await statusJson(c.env.ctx, status, currentAccount(c).id));
    });
  };
  const simple = (name: string, scope: string, fn: typeof actions.favourite) =>
    route(name, scope, (c) => fn(c.env.ctx, currentAccount(c), c.req.param("id") ?? ""));

  simple("favourite", "write:favourites", actions.favourite);
  simple("unfavourite", "write:favourites", actions.unfavourite);
  simple("bookmark", "write:bookmarks", actions.bookmark);
  simple("unbookmark", "write:bookmarks", actions.unbookmark);
  simple("mute", "write:mutes", actions.muteConversation);
  simple("unmute", "write:mutes", actions.unmuteConversation);
  simple("pin", "write:accounts", actions.pin);
  simple("unpin", "write:accounts", actions.unpin);
  simple("unreblog", "write:statuses", actions.unreblog);
  route("reblog", "write:statuses", async (c) => {
    const p = validate(reblogSchema, await readParams(c));
    return actions.reblog(
      c.env.ctx,
      currentAccount(c),
      currentUser(c),
      c.req.param("id") ?? "",
      p.visibility as Visibility | undefined,
    );
  });

  for (const [name, load] of [
    ["favourited_by", "favouriters"],
    ["reblogged_by", "rebloggers"],
  ] as const) {
    // Mastodon checks `read:accounts` here (the answer is accounts); `read:statuses` stays accepted.
    const scopes = ["read", "read:accounts", "read:statuses"];
    app.get(`/api/v1/statuses/:id{[0-9]+}/${name}`, optionalToken(...scopes), async (c) => {
      const ctx = c.env.ctx;
      const page = pageParams(c, 40, 80);
      const viewerId = viewerAccount(c)?.id;
      const status = await findVisibleStatus(ctx, c.req.param("id") ?? "", viewerId);
      const { rows, accounts } = await statusInteractorsPage(ctx, load, status.id, viewerId, page);
      setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
      return c.json(await accountsJson(ctx, accounts));
    });
  }
}
