import type { Context } from "hono";
import { isId } from "../../../lib/ids.ts";
import { currentAccount } from "../../middleware/auth.ts";
import { asArray, readParams } from "../../params.ts";
import type { HonoEnv } from "../../types.ts";
import { empty, get, json, list, noContent, none, opt, page, patch, post, signedIn, unavailable, user } from "./dsl.ts";
import { emptyRelationship, profileOf } from "./entities.ts";
import { truthy } from "./query.ts";
import type { Placeholder } from "./types.ts";

/** The existing accounts among `id[]`, in the order asked, without suspended ones unless `with_suspended`. */
async function requestedAccounts(c: Context<HonoEnv>, allowSuspended: boolean): Promise<string[]> {
  const params = await readParams(c);
  const ids = [...new Set((asArray(params.id) ?? []).filter(isId))];
  const found = new Map((await c.env.ctx.repos.accounts.getByIds(ids)).map((a) => [a.id, a]));
  const withSuspended = allowSuspended && truthy(params.with_suspended);
  return ids.filter((id) => {
    const a = found.get(id);
    return a !== undefined && (withSuspended || a.suspendedAt === null);
  });
}

const familiarFollowers = async (c: Context<HonoEnv>) =>
  (await requestedAccounts(c, false)).map((id) => ({ id, accounts: [] }));
const relationshipOfTarget = (c: Context<HonoEnv>) => emptyRelationship(c.req.param("id") ?? "");

const ACCOUNT = { account: "id" };
const UNDONE = { ...ACCOUNT, note: "Relationship with every flag false (there was nothing to undo)" };

/** 1.1 Accounts (what is not built elsewhere), profile, other account-scoped endpoints. */
export const accountRows: Placeholder[] = [
  get("/api/v1/accounts/:id/followers", opt("read:accounts"), page(40), ACCOUNT),
  get("/api/v1/accounts/:id/following", opt("read:accounts"), page(40), ACCOUNT),
  get("/api/v1/accounts/:id/lists", user("read:lists"), list(), ACCOUNT),
  get("/api/v1/accounts/:id/identity_proofs", signedIn(), list(), { ...ACCOUNT, note: "`[]` (always, as Mastodon)" }),
  post("/api/v1/accounts/:id/follow", user("write:follows"), unavailable(), ACCOUNT),
  post("/api/v1/accounts/:id/unfollow", user("write:follows"), json(relationshipOfTarget), UNDONE),
  post("/api/v1/accounts/:id/remove_from_followers", user("write:follows"), json(relationshipOfTarget), UNDONE),
  get("/api/v1/accounts/familiar_followers", user("read:follows"), json(familiarFollowers), {
    note: "`{id, accounts: []}` per existing requested account",
  }),

  get(
    "/api/v1/profile",
    user("profile", "read:accounts"),
    json((c: Context<HonoEnv>) => profileOf(c, currentAccount(c))),
    {
      note: "the Profile entity, from the stored profile",
    },
  ),
  patch("/api/v1/profile", user("write:accounts"), unavailable()),

  get("/api/v1/annual_reports", user("read:accounts"), json({ annual_reports: [], accounts: [], statuses: [] }), {
    note: "`{annual_reports: [], accounts: [], statuses: []}`",
  }),
  get("/api/v1/annual_reports/:year", user("read:accounts"), none()),
  get("/api/v1/annual_reports/:year/state", user("read:accounts"), json({ state: "ineligible" }), {
    note: '`{state: "ineligible"}`',
  }),
  post("/api/v1/annual_reports/:year/generate", user("write:accounts"), unavailable()),
  post("/api/v1/annual_reports/:year/read", user("write:accounts"), empty(), { note: "`{}` (nothing to mark)" }),
  get("/api/v1/donation_campaigns", signedIn(), noContent()),
];
