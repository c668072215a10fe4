import type { Context, Hono } from "hono";
import { EVERYONE_ROLE_ID } from "../../../../lib/roles.ts";
import { PERMISSION_NAMES, permissionBit } from "../../../../services/admin/roles.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import {
  createRole,
  deleteRole,
  findRole,
  listRoles,
  modifyRole,
  roleActorOf,
} from "../../../../services/moderation/roles.ts";
import type { Params } from "../../../oauth/params.ts";
import type { HonoEnv } from "../../../types.ts";
import { checked } from "../../guard.ts";
import { type MessageKey, t } from "../../i18n/index.ts";
import { html } from "../../pages/html.ts";
import { checkbox, csrfField } from "../../settings/forms.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { buttonForm, done, found, refusal, textField } from "./shared.ts";

const PATH = "/admin/roles";
const P = Permission.manageRoles;

type Role = Awaited<ReturnType<typeof listRoles>>[number];

interface RoleValues {
  name: string;
  color: string;
  position: string;
  permissions: number;
  highlighted: boolean;
}

const actorOf = (c: Context<HonoEnv>, me: Staff) => roleActorOf(c.env.ctx, moderatorOf(me.account), me.user.roleId);

const permissionLabel = (name: string) => `admin.roles.permission.${name}` as MessageKey;

async function listPage(c: Context<HonoEnv>, me: Staff, error?: string): Promise<Response> {
  const tr = t(c);
  const roles = await listRoles(c.env.ctx);
  // Only roles below one's own can be deleted (never the base role or one's own): the others get no button.
  const own = roles.find((r) => r.id === me.user.roleId);
  const deletable = (r: Role) =>
    r.id !== EVERYONE_ROLE_ID && r.id !== me.user.roleId && own !== undefined && r.position < own.position;
  const count = (bits: number) => PERMISSION_NAMES.filter((n) => (bits & (permissionBit(n) ?? 0)) !== 0).length;
  const rows = roles.map(
    (r) => html`<tr data-id="${r.id}">
<td>${r.id === EVERYONE_ROLE_ID ? tr("admin.roles.everyone") : r.name}${r.id === me.user.roleId ? html` <span class="badge">${tr("admin.roles.yours")}</span>` : ""}${r.highlighted ? html` <span class="badge good">${tr("admin.roles.highlighted_badge")}</span>` : ""}</td>
<td class="num">${r.id === EVERYONE_ROLE_ID ? "" : r.position}</td>
<td>${(r.permissions & Permission.administrator) !== 0 ? tr("admin.roles.all_permissions") : tr.plural("admin.roles.permission_count", count(r.permissions))}</td>
<td><div class="admin-actions"><a href="${PATH}/${r.id}/edit">${tr("admin.edit")}</a>
${deletable(r) ? buttonForm(`${PATH}/${r.id}/delete`, me.csrf, tr("admin.delete"), "danger") : ""}</div></td></tr>`,
  );
  const body = html`<h1>${tr("admin.roles.title")}</h1>
<p>${tr("admin.roles.intro")}</p>
<p><a href="${PATH}/new">${tr("admin.roles.new")}</a></p>
<table class="admin-table"><thead><tr><th scope="col">${tr("admin.roles.name")}</th><th scope="col" class="num">${tr("admin.roles.position")}</th><th scope="col">${tr("admin.roles.permissions")}</th><th scope="col"><span class="visually-hidden">${tr("admin.roles.actions")}</span></th></tr></thead>
<tbody>${rows}</tbody></table>`;
  return sendAdminPage(c, me, {
    title: tr("admin.roles.title"),
    body,
    current: PATH,
    notice: noticeFrom(c),
    error,
    status: error ? 422 : undefined,
  });
}

function formPage(
  c: Context<HonoEnv>,
  me: Staff,
  v: RoleValues,
  role: Role | undefined,
  error?: string,
): Promise<Response> {
  const tr = t(c);
  const everyone = role?.id === EVERYONE_ROLE_ID;
  const title = role
    ? tr("admin.roles.edit", { name: everyone ? tr("admin.roles.everyone") : role.name })
    : tr("admin.roles.new");
  const boxes = PERMISSION_NAMES.map((name) => {
    const on = (v.permissions & (permissionBit(name) ?? 0)) !== 0;
    return html`<label class="check" for="perm-${name}"><input type="checkbox" id="perm-${name}" name="permissions[]" value="${name}"${on ? html` checked` : ""}><span>${tr(permissionLabel(name))}</span></label>`;
  });
  const body = html`<h1>${title}</h1>
<form method="post" action="${role ? `${PATH}/${role.id}` : PATH}">
${csrfField(me.csrf)}
${
  everyone
    ? ""
    : html`<label for="role-name">${tr("admin.roles.name")}</label>
<input type="text" id="role-name" name="name" value="${v.name}" required maxlength="255">
<label for="role-position">${tr("admin.roles.position")}</label>
<input type="number" id="role-position" name="position" value="${v.position}" required aria-describedby="role-position-hint">
<p class="hint" id="role-position-hint">${tr("admin.roles.position_hint")}</p>
<label for="role-color">${tr("admin.roles.color")}</label>
<input type="text" id="role-color" name="color" value="${v.color}" pattern="#([0-9a-fA-F]{3}){1,2}" placeholder="#6364ff" aria-describedby="role-color-hint">
<p class="hint" id="role-color-hint">${tr("admin.roles.color_hint")}</p>
${checkbox({ id: "role-highlighted", name: "highlighted", label: tr("admin.roles.highlighted"), checked: v.highlighted, hint: tr("admin.roles.highlighted_hint") })}`
}
<fieldset><legend>${tr("admin.roles.permissions")}</legend>
${boxes}
</fieldset>
<p><button type="submit">${role ? tr("admin.save") : tr("admin.roles.create")}</button> <a href="${PATH}">${tr("admin.cancel")}</a></p>
</form>`;
  return sendAdminPage(c, me, { title, body, current: PATH, error, status: error ? 422 : undefined });
}

function readValues(params: Params, role?: Role): RoleValues {
  const v = params["permissions[]"] ?? params.permissions;
  const names = (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === "string");
  let permissions = 0;
  for (const n of names) permissions |= permissionBit(n) ?? 0;
  return {
    name: role?.id === EVERYONE_ROLE_ID ? role.name : textField(params, "name", 255, true),
    color: textField(params, "color", 20, true),
    position: textField(params, "position", 20, true),
    permissions,
    highlighted: checked(params, "highlighted"),
  };
}

function valuesOf(r: Role): RoleValues {
  return {
    name: r.name,
    color: r.color,
    position: String(r.position),
    permissions: r.permissions,
    highlighted: r.highlighted,
  };
}

const positionOf = (s: string) => (s === "" ? undefined : Number(s));

/** `/admin/roles`: roles and their permissions (Manage Roles), within the staff member's own rank. */
export function rolePages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  app.get(`${PATH}/new`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return formPage(c, me, { name: "", color: "", position: "0", permissions: 0, highlighted: false }, undefined);
  });

  app.post(PATH, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const v = readValues(params);
    try {
      await createRole(c.env.ctx, await actorOf(c, me), {
        name: v.name,
        color: v.color,
        position: positionOf(v.position),
        permissions: v.permissions,
        highlighted: v.highlighted,
      });
    } catch (e) {
      return formPage(c, me, v, undefined, refusal(e));
    }
    return done(c, PATH, "admin.roles.created");
  });

  app.get(`${PATH}/:id/edit`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    const role = await found(c, () => findRole(c.env.ctx, c.req.param("id")));
    if (role instanceof Response) return role;
    return formPage(c, me, valuesOf(role), role);
  });

  app.post(`${PATH}/:id`, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const role = await found(c, () => findRole(c.env.ctx, c.req.param("id")));
    if (role instanceof Response) return role;
    const v = readValues(params, role);
    const everyone = role.id === EVERYONE_ROLE_ID;
    try {
      await modifyRole(
        c.env.ctx,
        await actorOf(c, me),
        role,
        everyone
          ? { permissions: v.permissions }
          : {
              name: v.name,
              color: v.color,
              position: positionOf(v.position),
              permissions: v.permissions,
              highlighted: v.highlighted,
            },
      );
    } catch (e) {
      return formPage(c, me, v, role, refusal(e));
    }
    return done(c, PATH, "admin.roles.saved");
  });

  app.post(`${PATH}/:id/delete`, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me } = form;
    const role = await found(c, () => findRole(c.env.ctx, c.req.param("id")));
    if (role instanceof Response) return role;
    try {
      await deleteRole(c.env.ctx, await actorOf(c, me), role);
    } catch (e) {
      return listPage(c, me, refusal(e));
    }
    return done(c, PATH, "admin.roles.deleted");
  });
}
