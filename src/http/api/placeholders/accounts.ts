import type { Context } from "hono";
import { currentAccount } from "../../middleware/auth.ts";
import type { HonoEnv } from "../../types.ts";
import {
  del,
  empty,
  get,
  json,
  list,
  noContent,
  none,
  offset,
  opt,
  page,
  patch,
  post,
  pub,
  signedIn,
  unavailable,
  user,
} from "./dsl.ts";
import { emptyRelationship, profileOf } from "./entities.ts";
import type { Placeholder } from "./types.ts";

const relationshipOfTarget = (c: Context<HonoEnv>) => emptyRelationship(c.req.param("id") ?? "");

const ACCOUNT = { account: "id" };
const UNDONE = { ...ACCOUNT, note: "Relationship with every flag false (there was nothing to undo)" };

/** 1.1 Accounts (what is not built elsewhere), profile, other account-scoped endpoints, 1.22 suggestions. */
export const accountRows: Placeholder[] = [
  get("/api/v1/accounts/:id/featured_tags", opt("read:accounts"), list(), ACCOUNT),
  get("/api/v1/accounts/:id/endorsements", opt("read:accounts"), page(40), ACCOUNT),
  get("/api/v1/accounts/:id/identity_proofs", signedIn(), list(), { ...ACCOUNT, note: "`[]` (always, as Mastodon)" }),
  post("/api/v1/accounts/:id/endorse", user("write:accounts"), unavailable(), ACCOUNT),
  post("/api/v1/accounts/:id/unendorse", user("write:accounts"), json(relationshipOfTarget), UNDONE),
  post("/api/v1/accounts/:id/pin", user("write:accounts"), unavailable(), ACCOUNT),
  post("/api/v1/accounts/:id/unpin", user("write:accounts"), json(relationshipOfTarget), UNDONE),
  post("/api/v1/accounts/:id/note", user("write:accounts"), unavailable(), ACCOUNT),

  get(
    "/api/v1/profile",
    user("profile", "read:accounts"),
    json((c: Context<HonoEnv>) => profileOf(c, currentAccount(c))),
    {
      note: "the Profile entity, from the stored profile",
    },
  ),
  patch("/api/v1/profile", user("write:accounts"), unavailable()),

  get("/api/v1/endorsements", user("read:accounts"), page(40)),
  get("/api/v1/directory", pub(), offset(40)),
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

  // Upstream's newer controllers accept read:accounts / write:accounts here, beside the census' `read`.
  get("/api/v2/suggestions", user("read", "read:accounts"), offset(40)),
  get("/api/v1/suggestions", user("read", "read:accounts"), offset(40)),
  del("/api/v1/suggestions/:id", user("read", "write", "write:accounts"), empty(), {
    note: "`{}` (nothing to dismiss)",
  }),
];
