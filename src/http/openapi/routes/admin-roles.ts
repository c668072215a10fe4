import { actionLogListSchema } from "../../api/v1/admin/action-log-routes.ts";
import { assignRoleSchema, createRoleSchema, updateRoleSchema } from "../../api/v1/admin/role-routes.ts";
import type { DocArea } from "../types.ts";
import { d, EMPTY, pageOf } from "./common.ts";

const ROLE = "AdminRole";
const EXT = "A Gannet extension (Mastodon manages roles only on a web page).";
const BOUNDS =
  "Nobody may create, change, delete or hand out a role at or above their own position, nor grant a permission their own role lacks; of their own role only the name, color and badge may change (an administrator may also change its other permissions).";

/** Admin API: roles, role assignment and the action log (Gannet extensions). */
export const adminRoleDocs: DocArea = {
  tag: "Admin",
  routes: {
    "GET /api/v1/admin/roles": d("Every role, lowest position first", `${ROLE}[]`, { description: EXT }),
    "GET /api/v1/admin/roles/:id": d("One role", ROLE, { description: EXT }),
    "POST /api/v1/admin/roles": d("Create a role", ROLE, {
      body: createRoleSchema,
      description: `${EXT} ${BOUNDS}`,
    }),
    "PUT /api/v1/admin/roles/:id": d("Change a role", ROLE, {
      body: updateRoleSchema,
      description: `${EXT} ${BOUNDS} The everyone role keeps its name and position.`,
    }),
    "DELETE /api/v1/admin/roles/:id": d("Delete a role; its members go back to the everyone role", EMPTY, {
      description: `${EXT} The everyone and Owner roles cannot be deleted. ${BOUNDS}`,
    }),
    "POST /api/v1/admin/accounts/:id/role": d("Give a local account a role, or take it away", "AdminAccount", {
      body: assignRoleSchema,
      description: `${EXT} An empty \`role_id\` puts the account back in the everyone role. The account's current role and the new one must both be below the caller's.`,
    }),
    "GET /api/v1/admin/action_logs": pageOf("The action log, newest first", "AdminActionLog", 100, 200, {
      query: actionLogListSchema,
      description:
        "A Gannet extension (Mastodon shows its audit log only on a web page). Entries cannot be changed or deleted.",
    }),
  },
};
