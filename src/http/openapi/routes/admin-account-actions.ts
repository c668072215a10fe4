import { actionSchema } from "../../api/v1/admin/account-action-routes.ts";
import type { DocArea } from "../types.ts";
import { d, EMPTY } from "./common.ts";

const AA = "AdminAccount";

/** Admin API: moderation actions on accounts and their undoing. */
export const adminAccountActionDocs: DocArea = {
  tag: "Admin",
  routes: {
    "POST /api/v1/admin/accounts/:id/action": d(
      "Act on an account (none, disable, sensitive, silence, suspend), with a warning to the user; resolves the reports it settles",
      EMPTY,
      { body: actionSchema, errors: [403, 404, 422] },
    ),
    "POST /api/v1/admin/accounts/:id/unsilence": d("Lift an account's limit", AA, { errors: [404] }),
    "POST /api/v1/admin/accounts/:id/unsensitive": d("Stop forcing an account's media sensitive", AA, {
      errors: [404],
    }),
    "POST /api/v1/admin/accounts/:id/unsuspend": d("Lift a suspension made here; everything comes back", AA, {
      errors: [403, 404],
    }),
    "DELETE /api/v1/admin/accounts/:id": d(
      "Delete a suspended account's data for good (Delete User Data); the name stays taken",
      AA,
      { errors: [403, 404] },
    ),
  },
};
