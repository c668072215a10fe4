import type { Hono } from "hono";
import { refreshIfStale } from "../../../../federation/resolve/queue.ts";
import { ApiError } from "../../../../lib/errors.ts";
import { getVisibleAccount, getVisibleAccounts, lookupAccount } from "../../../../services/accounts/find-accounts.ts";
import { accountJson, accountsJson } from "../../../../services/accounts/views.ts";
import { optionalToken } from "../../../middleware/auth.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { requireParam } from "../../../validate.ts";
import { scalarText } from "./schemas.ts";

/** `GET /api/v1/accounts?id[]=` answers at most this many accounts (Mastodon's limit). */
const MAX_IDS = 40;

/** Public account reads: by id, by many ids, and by `acct`. */
export function lookupRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/accounts/lookup", optionalToken("read", "read:accounts"), async (c) => {
    const acct = requireParam(scalarText(c.req.query("acct"))?.trim(), "acct");
    return c.json(await accountJson(c.env.ctx, await lookupAccount(c.env.ctx, acct)));
  });

  app.get("/api/v1/accounts", optionalToken("read", "read:accounts"), async (c) => {
    const params = await readParams(c);
    const ids = (asArray(params.id) ?? []).map((x) => scalarText(x) ?? "");
    if (new Set(ids).size > MAX_IDS) {
      throw new ApiError(422, `Validation failed: too many accounts requested (maximum is ${MAX_IDS})`);
    }
    return c.json(await accountsJson(c.env.ctx, await getVisibleAccounts(c.env.ctx, ids)));
  });

  app.get("/api/v1/accounts/:id{[0-9]+}", optionalToken("read", "read:accounts"), async (c) => {
    const account = await getVisibleAccount(c.env.ctx, c.req.param("id"));
    // A remote account older than a day is fetched again in the background.
    await refreshIfStale(c.env.ctx, [account]);
    return c.json(await accountJson(c.env.ctx, account));
  });
}
