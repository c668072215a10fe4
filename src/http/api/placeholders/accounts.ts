import type { Context } from "hono";
import { serializeProfile } from "../../../serializers/profile.ts";
import { currentAccount } from "../../middleware/auth.ts";
import type { HonoEnv } from "../../types.ts";
import { empty, get, json, list, noContent, none, patch, post, signedIn, unavailable, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

const ACCOUNT = { account: "id" };

/** 1.1 Accounts (what is not built elsewhere), profile, other account-scoped endpoints. */
export const accountRows: Placeholder[] = [
  get("/api/v1/accounts/:id/identity_proofs", signedIn(), list(), { ...ACCOUNT, note: "`[]` (always, as Mastodon)" }),

  get(
    "/api/v1/profile",
    user("profile", "read:accounts"),
    json((c: Context<HonoEnv>) => serializeProfile(currentAccount(c), (key) => c.env.ctx.blobs.url(key))),
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
