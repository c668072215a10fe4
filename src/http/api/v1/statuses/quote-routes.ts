import type { Hono } from "hono";
import { z } from "zod";
import { quotesOfStatus, revokeQuote, setStatusQuotePolicy } from "../../../../services/quotes/manage.ts";
import { findVisibleStatus } from "../../../../services/statuses/find.ts";
import { statusesJson, statusJson } from "../../../../services/statuses/views.ts";
import { currentAccount, currentUser, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { validate } from "../../../validate.ts";
import { quoteApprovalPolicy } from "./schemas.ts";

const interactionPolicySchema = z.object({
  quote_approval_policy: z.preprocess((v) => (v === "" || v === null ? undefined : v), quoteApprovalPolicy.optional()),
});

/** Quote posts: quotes of a status, revoking one, the interaction policy (issue 17). */
export function quoteRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/statuses/:id{[0-9]+}/quotes", requireUser("read", "read:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const account = currentAccount(c);
    const page = pageParams(c, 20, 40);
    const status = await findVisibleStatus(ctx, c.req.param("id"), account.id);
    const { statuses, cursors } = await quotesOfStatus(ctx, account, status, page);
    setLinkHeader(c, page, cursors.count, cursors.first, cursors.last);
    return c.json(await statusesJson(ctx, statuses, account.id));
  });

  app.post(
    "/api/v1/statuses/:id{[0-9]+}/quotes/:quoting_status_id/revoke",
    requireUser("write", "write:statuses"),
    async (c) => {
      const ctx = c.env.ctx;
      const account = currentAccount(c);
      const status = await findVisibleStatus(ctx, c.req.param("id"), account.id);
      const quoting = await revokeQuote(ctx, account, status, c.req.param("quoting_status_id"));
      return c.json(await statusJson(ctx, quoting, account.id));
    },
  );

  app.put("/api/v1/statuses/:id{[0-9]+}/interaction_policy", requireUser("write", "write:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const account = currentAccount(c);
    const p = validate(interactionPolicySchema, await readParams(c));
    const status = await findVisibleStatus(ctx, c.req.param("id"), account.id);
    const updated = await setStatusQuotePolicy(ctx, account, currentUser(c), status, p.quote_approval_policy);
    return c.json(await statusJson(ctx, updated, account.id));
  });
}
