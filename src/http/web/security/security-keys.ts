import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Context, Hono } from "hono";
import { isId } from "../../../lib/ids.ts";
import { checkPassword } from "../../../services/oauth/sign-in.ts";
import { secondFactorEnabled } from "../../../services/security/totp.ts";
import {
  credentialsOf,
  deleteCredential,
  finishRegistration,
  NICKNAME_MAX,
  registrationOptions,
} from "../../../services/security/webauthn.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { sendSettingsPage } from "../settings/layout.ts";
import { METHODS, passwordField, settingsThrottle } from "./two-factor.ts";

type C = Context<HonoEnv>;
const KEYS = "/settings/security_keys";
const CREDENTIAL_MAX = 32_768;
const date = (iso: string) => iso.slice(0, 10);

async function keysPage(
  c: C,
  me: SignedIn,
  opts: { status?: number; notice?: string; errors?: Record<string, string>; nickname?: string } = {},
): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  if (!(await secondFactorEnabled(ctx, me.user.id))) {
    const body = html`<h1>${tr("security.keys.heading")}</h1>
<p>${tr("security.keys.app_first")}</p>
<p><a class="button" href="/settings/otp_authentication">${tr("security.methods.set_up_app")}</a></p>`;
    return sendSettingsPage(c, { title: tr("security.keys.heading"), body, current: METHODS, status: opts.status });
  }
  const keys = await credentialsOf(ctx, me.user.id);
  const errors = opts.errors ?? {};
  const list =
    keys.length === 0
      ? html`<p id="security-key-list">${tr("security.keys.none")}</p>`
      : html`<table id="security-key-list">
<thead><tr><th scope="col">${tr("security.keys.nickname")}</th><th scope="col">${tr("security.keys.added")}</th><th scope="col">${tr("security.keys.last_used")}</th><th scope="col"><span class="visually-hidden">${tr("security.keys.actions")}</span></th></tr></thead>
<tbody>
${keys.map(
  (
    k,
  ) => html`<tr><td>${k.nickname}</td><td>${date(k.createdAt)}</td><td>${k.lastUsedAt ? date(k.lastUsedAt) : tr("security.keys.never")}</td>
<td><form method="post" action="${KEYS}/${k.id}/delete"><input type="hidden" name="authenticity_token" value="${me.csrf}"><button type="submit" class="secondary" aria-label="${tr("security.keys.delete_named", { name: k.nickname })}">${tr("common.delete")}</button></form></td></tr>\n`,
)}</tbody>
</table>`;
  const body = html`<h1>${tr("security.keys.heading")}</h1>
<p>${tr("security.keys.intro")}</p>
${list}
<h2>${tr("security.keys.add_heading")}</h2>
${errors.credential ? html`<p class="error" role="alert" id="credential-error">${errors.credential}</p>` : ""}
<form method="post" action="${KEYS}" id="webauthn-register" data-options="${KEYS}/options">
<input type="hidden" name="authenticity_token" value="${me.csrf}">
<input type="hidden" name="credential" value="">
<label for="nickname">${tr("security.keys.nickname")}</label>
<input type="text" id="nickname" name="nickname" value="${opts.nickname ?? ""}" maxlength="${NICKNAME_MAX}" required${errors.nickname ? html` aria-invalid="true" aria-describedby="nickname-error"` : ""}>
${errors.nickname ? html`<p class="field-error" id="nickname-error" role="alert">${errors.nickname}</p>` : ""}
${passwordField(c, "password", errors.password)}
<button type="submit" class="webauthn-start" disabled>${tr("security.keys.add")}</button>
<p class="error webauthn-error" role="alert" hidden>${tr("security.webauthn.failed")}</p>
</form>
<noscript><p class="muted">${tr("security.keys.needs_script")}</p></noscript>`;
  return sendSettingsPage(c, {
    title: tr("security.keys.heading"),
    body,
    current: METHODS,
    status: opts.status,
    notice: opts.notice,
    scripts: ["simplewebauthn-browser.js", "webauthn.js"],
  });
}

function parseRegistration(raw: string): RegistrationResponseJSON | undefined {
  if (raw === "" || raw.length > CREDENTIAL_MAX) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === "object" ? (v as RegistrationResponseJSON) : undefined;
  } catch {
    return undefined;
  }
}

export function securityKeyRoutes(app: Hono<HonoEnv>): void {
  app.get(KEYS, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const tr = t(c);
    const done = c.req.query("done");
    const notice =
      done === "added"
        ? tr("security.keys.added_notice")
        : done === "deleted"
          ? tr("security.keys.deleted")
          : undefined;
    return keysPage(c, me, { notice });
  });

  // The options for navigator.credentials.create(), for the page's script (same-origin fetch).
  app.get(`${KEYS}/options`, settingsThrottle(), async (c) => {
    c.header("Cache-Control", "no-store");
    const me = await requireUser(c);
    if (me instanceof Response) return c.json({ error: "This method requires an authenticated user" }, 401);
    if (!(await secondFactorEnabled(c.env.ctx, me.user.id))) return c.json({ error: "Set up an app first" }, 422);
    return c.json(await registrationOptions(c.env.ctx, me.user, me.account.username, me.session.nonce));
  });

  app.post(KEYS, settingsThrottle(), async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const ctx = c.env.ctx;
    const tr = t(c);
    if (!(await secondFactorEnabled(ctx, me.user.id))) return c.redirect(METHODS, 303);
    const nickname = field(params, "nickname", 1000).trim();
    const again = (errors: Record<string, string>) => keysPage(c, me, { status: 422, errors, nickname });
    if (nickname === "") return again({ nickname: tr("security.keys.nickname_missing") });
    if (nickname.length > NICKNAME_MAX)
      return again({ nickname: tr("security.keys.nickname_long", { max: NICKNAME_MAX }) });
    if ((await credentialsOf(ctx, me.user.id)).some((k) => k.nickname === nickname)) {
      return again({ nickname: tr("security.keys.nickname_taken") });
    }
    if (!(await checkPassword(me.user, field(params, "password", 300)))) {
      return again({ password: tr("security.wrong_password") });
    }
    const response = parseRegistration(field(params, "credential", CREDENTIAL_MAX + 1));
    const ok =
      response !== undefined && (await finishRegistration(ctx, me.user.id, me.session.nonce, response, nickname));
    if (!ok) return again({ credential: tr("security.webauthn.failed") });
    return c.redirect(`${KEYS}?done=added`, 303);
  });

  app.post(`${KEYS}/:id/delete`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const id = c.req.param("id");
    if (!isId(id) || !(await deleteCredential(c.env.ctx, me.user.id, id))) {
      const tr = t(c);
      return keysPage(c, me, { status: 404, errors: { credential: tr("security.keys.not_found") } });
    }
    return c.redirect(`${KEYS}?done=deleted`, 303);
  });
}
