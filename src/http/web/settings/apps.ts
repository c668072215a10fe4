import type { Context, Hono } from "hono";
import { ALL_SCOPES } from "../../../lib/scopes.ts";
import { authorizedApps, revokeAuthorizedApp } from "../../../services/oauth/authorized-apps.ts";
import {
  clientSecretOf,
  createOwnedApp,
  deleteOwnedApp,
  type OwnedAppInput,
  ownedApp,
  ownedApps,
  ownerToken,
  regenerateOwnerToken,
  updateOwnedApp,
} from "../../../services/oauth/owned-apps.ts";
import type { Application } from "../../../services/oauth/types.ts";
import type { Params } from "../../oauth/params.ts";
import type { HonoEnv } from "../../types.ts";
import { readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { errorPage } from "../pages/notices.ts";
import { scopeLabel } from "../pages/scope-labels.ts";
import {
  csrfField,
  describedBy,
  type FieldProblems,
  fieldError,
  formatDate,
  hasProblems,
  list,
  problemSummary,
  savedNotice,
  text,
} from "./forms.ts";
import { sendSettingsPage } from "./layout.ts";

const AUTHORIZED = "/oauth/authorized_applications";
const DEVELOPMENT = "/settings/applications";
const OOB = "urn:ietf:wg:oauth:2.0:oob";

const notFoundPage = (c: Context<HonoEnv>) => {
  const tr = t(c);
  return errorPage(c, 404, tr("common.not_found"), tr("common.not_found_text"));
};

// Authorized applications

async function authorizedPage(c: Context<HonoEnv>, me: SignedIn): Promise<Response> {
  const tr = t(c);
  const apps = await authorizedApps(c.env.ctx, me.user.id);
  const body = html`<h1>${tr("settings.authorized_apps.title")}</h1>
<p>${tr("settings.authorized_apps.intro")}</p>
${
  apps.length === 0
    ? html`<p class="muted">${tr("settings.authorized_apps.none")}</p>`
    : html`<ul class="settings-list">
${apps.map(
  (a) => html`<li class="settings-item">
<h2>${a.app.website ? html`<a href="${a.app.website}" rel="noopener noreferrer">${a.app.name}</a>` : a.app.name}</h2>
<p class="muted">${tr("settings.authorized_apps.authorized_at", { date: formatDate(tr.locale, a.authorizedAt) })}${
    a.lastUsedAt
      ? html` · ${tr("settings.authorized_apps.last_used_at", { date: formatDate(tr.locale, a.lastUsedAt) })}`
      : ""
  }</p>
<ul class="scopes">${a.scopes.map((s) => html`<li>${scopeLabel(s)} <span class="muted">(${s})</span></li>`)}</ul>
<form method="post" action="${AUTHORIZED}/${a.app.id}/revoke">${csrfField(me.csrf)}<button type="submit" class="danger">${tr("settings.authorized_apps.revoke")}<span class="visually-hidden"> ${a.app.name}</span></button></form>
</li>`,
)}
</ul>`
}`;
  return sendSettingsPage(c, {
    title: tr("settings.authorized_apps.title"),
    body,
    current: AUTHORIZED,
    notice: c.req.query("revoked") === "1" ? tr("settings.authorized_apps.revoked") : undefined,
  });
}

// Development: the user's own applications

interface AppValues {
  name: string;
  website: string;
  redirectUris: string;
  scopes: string[];
}

function appForm(
  c: Context<HonoEnv>,
  me: SignedIn,
  v: AppValues,
  opts: { app?: Application; problems?: FieldProblems },
): Response {
  const tr = t(c);
  const p = opts.problems ?? {};
  const editing = opts.app;
  const title = editing ? tr("settings.applications.edit_title") : tr("settings.applications.new_title");
  const body = html`<h1>${title}</h1>
${problemSummary(c, opts.problems)}
<form method="post" action="${editing ? `${DEVELOPMENT}/${editing.id}` : DEVELOPMENT}" class="settings-form">
${csrfField(me.csrf)}
<label for="name">${tr("settings.applications.name")}</label>
<input type="text" id="name" name="name" value="${v.name}" maxlength="200" required${describedBy("name", p.name)}>
${fieldError("name", p.name)}
<label for="website">${tr("settings.applications.website")}</label>
<input type="url" id="website" name="website" value="${v.website}" maxlength="2000"${describedBy("website", p.website)}>
${fieldError("website", p.website)}
<label for="redirect_uris">${tr("settings.applications.redirect_uris")}</label>
<textarea id="redirect_uris" name="redirect_uris" rows="3"${describedBy("redirect_uris", p.redirect_uris, true)}>${v.redirectUris}</textarea>
<p class="hint" id="redirect_uris-hint">${tr("settings.applications.redirect_uris_hint", { oob: OOB })}</p>
${fieldError("redirect_uris", p.redirect_uris)}
<fieldset${describedBy("scopes", p.scopes, true)}>
<legend>${tr("settings.applications.scopes")}</legend>
<p class="hint" id="scopes-hint">${tr("settings.applications.scopes_hint")}</p>
${fieldError("scopes", p.scopes)}
<div class="checkbox-columns scopes-list">
${ALL_SCOPES.map(
  (s) =>
    html`<label class="check" for="scope_${s.replace(/:/g, "_")}"><input type="checkbox" id="scope_${s.replace(/:/g, "_")}" name="scopes[]" value="${s}"${v.scopes.includes(s) ? html` checked` : ""}><span><code>${s}</code> <span class="hint">${scopeLabel(s)}</span></span></label>`,
)}
</div>
</fieldset>
<div class="actions"><button type="submit">${editing ? tr("common.save") : tr("settings.applications.submit")}</button> <a href="${editing ? `${DEVELOPMENT}/${editing.id}` : DEVELOPMENT}">${tr("common.cancel")}</a></div>
</form>`;
  return sendSettingsPage(c, { title, body, current: DEVELOPMENT, status: hasProblems(opts.problems) ? 422 : 200 });
}

function postedApp(params: Params): AppValues {
  return {
    name: text(params.name, 1000),
    website: text(params.website, 3000),
    redirectUris: text(params.redirect_uris, 5000),
    scopes: list(params.scopes, 200),
  };
}

const asInput = (v: AppValues): OwnedAppInput => ({ ...v });

function problemsByField(list: { field: string; message: string }[]): FieldProblems {
  const out: FieldProblems = {};
  for (const x of list) (out[x.field] ??= []).push(x.message);
  return out;
}

async function developmentPage(c: Context<HonoEnv>, me: SignedIn): Promise<Response> {
  const tr = t(c);
  const apps = await ownedApps(c.env.ctx, me.account.id);
  const body = html`<h1>${tr("settings.applications.title")}</h1>
<p>${tr("settings.applications.intro")}</p>
<p><a class="button" href="${DEVELOPMENT}/new">${tr("settings.applications.new")}</a></p>
${
  apps.length === 0
    ? html`<p class="muted">${tr("settings.applications.none")}</p>`
    : html`<table>
<thead><tr><th scope="col">${tr("settings.applications.name")}</th><th scope="col">${tr("settings.applications.scopes")}</th></tr></thead>
<tbody>${apps.map(
        (a) =>
          html`<tr><td><a href="${DEVELOPMENT}/${a.id}">${a.name}</a></td><td><code>${a.scopes.join(" ")}</code></td></tr>`,
      )}</tbody></table>`
}`;
  return sendSettingsPage(c, {
    title: tr("settings.applications.title"),
    body,
    current: DEVELOPMENT,
    notice: c.req.query("deleted") === "1" ? tr("settings.applications.deleted") : undefined,
  });
}

async function appPage(c: Context<HonoEnv>, me: SignedIn, app: Application): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const secret = clientSecretOf(ctx, app);
  const token = await ownerToken(ctx, app, me.user);
  const secretText = (id: string, label: string, value: string | undefined) =>
    html`<tr><th scope="row" id="${id}-label">${label}</th><td><code class="code" id="${id}" aria-labelledby="${id}-label">${value ?? tr("settings.applications.secret_unavailable")}</code></td></tr>`;
  const notice =
    c.req.query("regenerated") === "1"
      ? tr("settings.applications.regenerated")
      : c.req.query("created") === "1"
        ? tr("settings.applications.created")
        : savedNotice(c);
  const body = html`<h1>${tr("settings.applications.app_title", { name: app.name })}</h1>
<p>${tr("settings.applications.secrets_warning")}</p>
<table class="app-secrets">
${secretText("client_id", tr("settings.applications.client_id"), app.clientId)}
${secretText("client_secret", tr("settings.applications.client_secret"), secret)}
${secretText("access_token", tr("settings.applications.access_token"), token)}
</table>
<div class="actions">
<form method="post" action="${DEVELOPMENT}/${app.id}/regenerate">${csrfField(me.csrf)}<button type="submit" class="secondary">${tr("settings.applications.regenerate")}</button></form>
<a class="button secondary" href="${DEVELOPMENT}/${app.id}/edit">${tr("settings.applications.edit")}</a>
<form method="post" action="${DEVELOPMENT}/${app.id}/delete">${csrfField(me.csrf)}<button type="submit" class="danger">${tr("settings.applications.delete")}</button></form>
</div>
<h2>${tr("settings.applications.details")}</h2>
<dl class="app-details">
<dt>${tr("settings.applications.website")}</dt><dd>${app.website ?? "—"}</dd>
<dt>${tr("settings.applications.redirect_uris")}</dt><dd>${app.redirectUris.map((u) => html`<code>${u}</code><br>`)}</dd>
<dt>${tr("settings.applications.scopes")}</dt><dd><code>${app.scopes.join(" ")}</code></dd>
</dl>`;
  return sendSettingsPage(c, {
    title: tr("settings.applications.app_title", { name: app.name }),
    body,
    current: DEVELOPMENT,
    notice,
  });
}

/** The signed-in user and their application named by `:id` (else the sign-in redirect or a 404 page). */
async function mine(c: Context<HonoEnv>): Promise<{ me: SignedIn; app: Application } | Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const app = await ownedApp(c.env.ctx, me.account.id, c.req.param("id") ?? "");
  return app ? { me, app } : notFoundPage(c);
}

export function appRoutes(app: Hono<HonoEnv>): void {
  app.get(AUTHORIZED, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return authorizedPage(c, me);
  });

  app.post(`${AUTHORIZED}/:id/revoke`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    // Revoking an application not (or no longer) authorized changes nothing.
    await revokeAuthorizedApp(c.env.ctx, me.user.id, c.req.param("id"));
    return c.redirect(`${AUTHORIZED}?revoked=1`, 303);
  });

  app.get(DEVELOPMENT, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return developmentPage(c, me);
  });

  app.get(`${DEVELOPMENT}/new`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return appForm(c, me, { name: "", website: "", redirectUris: OOB, scopes: ["read", "write", "follow"] }, {});
  });

  app.post(DEVELOPMENT, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const v = postedApp(params);
    const made = await createOwnedApp(c.env.ctx, me.account.id, asInput(v));
    if (!made.ok || !made.application) {
      return appForm(c, me, v, { problems: problemsByField(made.ok ? [] : made.problems) });
    }
    return c.redirect(`${DEVELOPMENT}/${made.application.id}?created=1`, 303);
  });

  app.get(`${DEVELOPMENT}/:id{[0-9]+}`, async (c) => {
    const found = await mine(c);
    if (found instanceof Response) return found;
    return appPage(c, found.me, found.app);
  });

  app.get(`${DEVELOPMENT}/:id{[0-9]+}/edit`, async (c) => {
    const found = await mine(c);
    if (found instanceof Response) return found;
    const a = found.app;
    const v = { name: a.name, website: a.website ?? "", redirectUris: a.redirectUris.join("\n"), scopes: a.scopes };
    return appForm(c, found.me, v, { app: a });
  });

  app.post(`${DEVELOPMENT}/:id{[0-9]+}`, async (c) => {
    const found = await mine(c);
    if (found instanceof Response) return found;
    const params = await readForm(c, found.me.session);
    if (params instanceof Response) return params;
    const v = postedApp(params);
    const checked = await updateOwnedApp(c.env.ctx, found.app, asInput(v));
    if (!checked.ok) return appForm(c, found.me, v, { app: found.app, problems: problemsByField(checked.problems) });
    return c.redirect(`${DEVELOPMENT}/${found.app.id}?saved=1`, 303);
  });

  app.post(`${DEVELOPMENT}/:id{[0-9]+}/regenerate`, async (c) => {
    const found = await mine(c);
    if (found instanceof Response) return found;
    const params = await readForm(c, found.me.session);
    if (params instanceof Response) return params;
    await regenerateOwnerToken(c.env.ctx, found.app);
    return c.redirect(`${DEVELOPMENT}/${found.app.id}?regenerated=1`, 303);
  });

  app.post(`${DEVELOPMENT}/:id{[0-9]+}/delete`, async (c) => {
    const found = await mine(c);
    if (found instanceof Response) return found;
    const params = await readForm(c, found.me.session);
    if (params instanceof Response) return params;
    await deleteOwnedApp(c.env.ctx, found.app);
    return c.redirect(`${DEVELOPMENT}?deleted=1`, 303);
  });
}
