import type { Hono } from "hono";
import { z } from "zod";
import { getVisibleAccount } from "../../../../services/accounts/find-accounts.ts";
import { accountsJson } from "../../../../services/accounts/views.ts";
import { endorsedPage } from "../../../../services/relationships/endorsed-page.ts";
import * as curation from "../../../../services/relationships/endorsements-notes.ts";
import { currentAccount, optionalToken, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { text, validate } from "../../../validate.ts";

export const noteSchema = z.object({
  comment: z.preprocess((v) => (v === null ? undefined : v), text(Number.MAX_SAFE_INTEGER).optional()),
});

/** Endorsements (featured accounts, Mastodon's account pins) and private notes on accounts. */
export function endorsementRoutes(app: Hono<HonoEnv>): void {
  for (const verb of ["endorse", "pin"]) {
    app.post(`/api/v1/accounts/:id{[0-9]+}/${verb}`, requireUser("write:accounts"), async (c) =>
      c.json(await curation.endorse(c.env.ctx, currentAccount(c), c.req.param("id"))),
    );
  }
  for (const verb of ["unendorse", "unpin"]) {
    app.post(`/api/v1/accounts/:id{[0-9]+}/${verb}`, requireUser("write:accounts"), async (c) =>
      c.json(await curation.unendorse(c.env.ctx, currentAccount(c), c.req.param("id"))),
    );
  }

  app.post("/api/v1/accounts/:id{[0-9]+}/note", requireUser("write:accounts"), async (c) => {
    const p = validate(noteSchema, await readParams(c));
    return c.json(await curation.setNote(c.env.ctx, currentAccount(c), c.req.param("id"), p.comment));
  });

  app.get("/api/v1/endorsements", requireUser("read:accounts"), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 40, 80);
    const { rows, accounts } = await endorsedPage(ctx, currentAccount(c).id, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await accountsJson(ctx, accounts));
  });

  /** Anyone's endorsements; none for a suspended account. */
  app.get("/api/v1/accounts/:id{[0-9]+}/endorsements", optionalToken("read", "read:accounts"), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 40, 80);
    const account = await getVisibleAccount(ctx, c.req.param("id"));
    const { rows, accounts } =
      account.suspendedAt === null ? await endorsedPage(ctx, account.id, page) : { rows: [], accounts: [] };
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await accountsJson(ctx, accounts));
  });
}
