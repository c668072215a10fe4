import type { Context, Hono } from "hono";
import { isId } from "../../../lib/ids.ts";
import {
  describeUserAgent,
  listWebSessions,
  revokeOtherWebSessions,
  revokeWebSession,
} from "../../../services/security/sessions.ts";
import type { HonoEnv } from "../../types.ts";
import { readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { sendSettingsPage } from "../settings/layout.ts";

type C = Context<HonoEnv>;
const SESSIONS = "/settings/sessions";

function when(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

async function sessionsPage(c: C, me: SignedIn, opts: { status?: number; notice?: string; error?: string } = {}) {
  const tr = t(c);
  const rows = await listWebSessions(c.env.ctx, me.user);
  const others = rows.filter((r) => r.id !== me.session.id).length;
  const body = html`<h1>${tr("security.sessions.heading")}</h1>
<p>${tr("security.sessions.intro")}</p>
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ""}
<table id="sessions">
<thead><tr><th scope="col">${tr("security.sessions.browser")}</th><th scope="col">${tr("security.sessions.ip")}</th><th scope="col">${tr("security.sessions.last_active")}</th><th scope="col"><span class="visually-hidden">${tr("security.sessions.actions")}</span></th></tr></thead>
<tbody>
${rows.map((r) => {
  const ua = describeUserAgent(r.userAgent);
  const name =
    ua.browser && ua.platform
      ? tr("security.sessions.browser_on", { browser: ua.browser, platform: ua.platform })
      : ua.browser || ua.platform || tr("security.sessions.unknown_browser");
  const current = r.id === me.session.id;
  return html`<tr${current ? html` class="current"` : ""}><td>${name}${current ? html` <strong class="badge">${tr("security.sessions.current")}</strong>` : ""}</td>
<td>${r.ip ?? ""}</td><td>${current ? tr("security.sessions.now") : html`<time datetime="${r.updatedAt}">${when(r.updatedAt)}</time>`}</td>
<td>${
    current
      ? ""
      : html`<form method="post" action="${SESSIONS}/${r.id}/revoke"><input type="hidden" name="authenticity_token" value="${me.csrf}"><button type="submit" class="secondary" aria-label="${tr("security.sessions.revoke_named", { name })}">${tr("security.sessions.revoke")}</button></form>`
  }</td></tr>\n`;
})}</tbody>
</table>
${
  others > 0
    ? html`<form method="post" action="${SESSIONS}/revoke_others">
<input type="hidden" name="authenticity_token" value="${me.csrf}">
<button type="submit" class="danger">${tr("security.sessions.revoke_others")}</button>
</form>`
    : ""
}`;
  return sendSettingsPage(c, {
    title: tr("security.sessions.heading"),
    body,
    current: SESSIONS,
    status: opts.status,
    notice: opts.notice,
  });
}

export function sessionPageRoutes(app: Hono<HonoEnv>): void {
  app.get(SESSIONS, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const tr = t(c);
    const done = c.req.query("done");
    const notice =
      done === "revoked"
        ? tr("security.sessions.revoked")
        : done === "others"
          ? tr("security.sessions.others_revoked")
          : undefined;
    return sessionsPage(c, me, { notice });
  });

  app.post(`${SESSIONS}/:id/revoke`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const id = c.req.param("id");
    if (id === me.session.id || !isId(id) || !(await revokeWebSession(c.env.ctx, me.user.id, id))) {
      return sessionsPage(c, me, { status: 404, error: t(c)("security.sessions.not_found") });
    }
    return c.redirect(`${SESSIONS}?done=revoked`, 303);
  });

  app.post(`${SESSIONS}/revoke_others`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    await revokeOtherWebSessions(c.env.ctx, me.user.id, me.session.id);
    return c.redirect(`${SESSIONS}?done=others`, 303);
  });
}
