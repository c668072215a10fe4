import type { Hono } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { pollJson } from "../../../../services/polls/views.ts";
import { findVisiblePoll, vote } from "../../../../services/polls/votes.ts";
import { currentAccount, optionalToken, requireUser, viewerAccount } from "../../../middleware/auth.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

/** A choice as Ruby's `Integer()` reads it; anything else is NaN (an option that does not exist). */
function choiceOf(v: unknown): number {
  if (typeof v === "number") return Number.isInteger(v) ? v : Number.NaN;
  if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) return Number.parseInt(v, 10);
  return Number.NaN;
}

/** 1.12 Polls: see one, vote. */
export function pollRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/polls/:id{[0-9]+}", optionalToken("read", "read:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const viewerId = viewerAccount(c)?.id;
    const poll = await findVisiblePoll(ctx, c.req.param("id"), viewerId);
    return c.json(await pollJson(ctx, poll, viewerId));
  });

  app.post("/api/v1/polls/:id{[0-9]+}/votes", requireUser("write", "write:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const account = currentAccount(c);
    const poll = await findVisiblePoll(ctx, c.req.param("id"), account.id);
    const raw = (asArray((await readParams(c)).choices) ?? []).filter((x) => x !== "" && x !== null);
    // Rails' `params.require(:choices)`: missing or empty is a 400.
    if (raw.length === 0) throw new ApiError(400, "param is missing or the value is empty: choices");
    await vote(ctx, poll.id, account.id, raw.map(choiceOf));
    return c.json(await pollJson(ctx, poll, account.id));
  });
}
