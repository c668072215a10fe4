import type { Context } from "hono";
import { Permission } from "../../../lib/roles.ts";
import type { Params } from "../../oauth/params.ts";
import type { HonoEnv } from "../../types.ts";
import { readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { errorPage } from "../pages/notices.ts";

/** A signed-in staff member on a panel page, with what their role allows. */
export interface Staff extends SignedIn {
  /** Whether the role grants every bit of `permission` (the Owner's `administrator` grants all). */
  can(permission: number): Promise<boolean>;
}

/**
 * The staff member of a panel page: signed in (else the sign-in redirect), and holding a role that
 * grants `permission` (else a 403 page). The same check as the admin API's `requirePermission`,
 * so the panel never does what the API would refuse the same person.
 */
export async function requireStaff(c: Context<HonoEnv>, permission: number): Promise<Staff | Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const roles = c.env.ctx.roles;
  const can = (p: number) => roles.can(me.user.roleId, p);
  if (!(await can(permission))) {
    const tr = t(c);
    return errorPage(c, 403, tr("admin.forbidden"), tr("admin.forbidden_text"));
  }
  return { ...me, can };
}

/** A panel form: `requireStaff` and then the posted form with its CSRF token checked. */
export async function staffForm(
  c: Context<HonoEnv>,
  permission: number,
): Promise<{ me: Staff; params: Params } | Response> {
  const me = await requireStaff(c, permission);
  if (me instanceof Response) return me;
  const params = await readForm(c, me.session);
  if (params instanceof Response) return params;
  return { me, params };
}

/** The permission bits, for the panel's routes. */
export { Permission };
