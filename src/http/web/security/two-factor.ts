import type { Context, Hono } from "hono";
import { checkPassword } from "../../../services/oauth/sign-in.ts";
import { recoveryCodesLeft, regenerateRecoveryCodes } from "../../../services/security/recovery-codes.ts";
import {
  beginOtpSetup,
  confirmOtpSetup,
  disableSecondFactor,
  secondFactorEnabled,
  verifyOtpCode,
} from "../../../services/security/totp.ts";
import { credentialsOf } from "../../../services/security/webauthn.ts";
import { throttle } from "../../middleware/rate-limit.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import { sendSettingsPage } from "../settings/layout.ts";

type C = Context<HonoEnv>;
export const METHODS = "/settings/two_factor_authentication_methods";
const OTP = "/settings/otp_authentication";
const FIVE_MIN = 5 * 60 * 1000;
/** Password and code checks on these pages: 25 per 5 minutes per IP, as sign-in. */
export const settingsThrottle = () => throttle("security_settings", 25, FIVE_MIN, "ip");

const hidden = (csrf: string) => html`<input type="hidden" name="authenticity_token" value="${csrf}">`;

/** A labelled field with its error tied to it. */
export function passwordField(c: C, id: string, error?: string, label?: string): SafeHtml {
  const tr = t(c);
  return html`<label for="${id}">${label ?? tr("security.current_password")}</label>
<input type="password" id="${id}" name="${id}" autocomplete="current-password" required${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ""}>
${error ? html`<p class="field-error" id="${id}-error" role="alert">${error}</p>` : ""}`;
}

function recoveryCodesPage(c: C, codes: string[], notice: string): Response {
  const tr = t(c);
  const body = html`<h1>${tr("security.recovery.heading")}</h1>
<p>${tr("security.recovery.text")}</p>
<ol class="recovery-codes" id="recovery-codes">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ol>
<p><a class="button" href="${METHODS}">${tr("security.recovery.done")}</a></p>`;
  return sendSettingsPage(c, { title: tr("security.recovery.heading"), body, current: METHODS, notice });
}

async function methodsPage(
  c: C,
  me: SignedIn,
  opts: { status?: number; notice?: string; errors?: Record<string, string> } = {},
): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const enabled = await secondFactorEnabled(ctx, me.user.id);
  const errors = opts.errors ?? {};
  let body: SafeHtml;
  if (!enabled) {
    body = html`<h1>${tr("security.methods.heading")}</h1>
<p>${tr("security.methods.intro")}</p>
<p id="two-factor-status">${tr("security.methods.off")}</p>
<p><a class="button" href="${OTP}">${tr("security.methods.set_up_app")}</a></p>
<p class="muted">${tr("security.methods.keys_need_app")}</p>`;
  } else {
    const [left, keys] = await Promise.all([recoveryCodesLeft(ctx, me.user.id), credentialsOf(ctx, me.user.id)]);
    body = html`<h1>${tr("security.methods.heading")}</h1>
<p id="two-factor-status">${tr("security.methods.on")}</p>
<table>
<thead><tr><th scope="col">${tr("security.methods.method")}</th><th scope="col">${tr("security.methods.state")}</th></tr></thead>
<tbody>
<tr><td>${tr("security.methods.app")}</td><td>${tr("security.methods.app_on")}</td></tr>
<tr><td><a href="/settings/security_keys">${tr("security.methods.keys")}</a></td><td>${tr.plural("security.methods.keys_count", keys.length)}</td></tr>
<tr><td>${tr("security.methods.recovery")}</td><td>${tr.plural("security.methods.recovery_left", left)}</td></tr>
</tbody>
</table>
<h2>${tr("security.methods.regenerate_heading")}</h2>
<p>${tr("security.methods.regenerate_text")}</p>
<form method="post" action="/settings/two_factor_authentication/recovery_codes">
${hidden(me.csrf)}
${passwordField(c, "password", errors.password)}
<button type="submit" class="secondary">${tr("security.methods.regenerate")}</button>
</form>
<h2>${tr("security.methods.disable_heading")}</h2>
<p>${tr("security.methods.disable_text")}</p>
<form method="post" action="/settings/two_factor_authentication/disable">
${hidden(me.csrf)}
<label for="otp_attempt">${tr("security.methods.disable_label")}</label>
<input type="password" id="otp_attempt" name="otp_attempt" autocomplete="off" required${errors.otp_attempt ? html` aria-invalid="true" aria-describedby="otp_attempt-error"` : ""}>
${errors.otp_attempt ? html`<p class="field-error" id="otp_attempt-error" role="alert">${errors.otp_attempt}</p>` : ""}
<button type="submit" class="danger">${tr("security.methods.disable")}</button>
</form>`;
  }
  return sendSettingsPage(c, {
    title: tr("security.methods.heading"),
    body,
    current: METHODS,
    status: opts.status,
    notice: opts.notice,
  });
}

async function otpSetupPage(c: C, me: SignedIn, opts: { status?: number; errors?: Record<string, string> } = {}) {
  const tr = t(c);
  const setup = await beginOtpSetup(
    c.env.ctx,
    me.user,
    `${me.account.username}@${c.env.ctx.config.localDomain.replace(/:\d+$/, "")}`,
  );
  const errors = opts.errors ?? {};
  const body = html`<h1>${tr("security.otp.heading")}</h1>
<ol class="steps">
<li>${tr("security.otp.step_app")}</li>
<li>${tr("security.otp.step_scan")}
<figure class="qr"><img src="${setup.qrDataUrl}" width="220" height="220" alt="${tr("security.otp.qr_alt")}"></figure>
<p>${tr("security.otp.manual")}</p>
<code class="code" id="otp-secret">${setup.secret.replace(/(.{4})/g, "$1 ").trim()}</code></li>
<li>${tr("security.otp.step_confirm")}</li>
</ol>
<form method="post" action="${OTP}">
${hidden(me.csrf)}
<label for="otp_attempt">${tr("security.otp.code_label")}</label>
<input type="text" id="otp_attempt" name="otp_attempt" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" maxlength="7" required${errors.otp_attempt ? html` aria-invalid="true" aria-describedby="otp_attempt-error"` : ""}>
${errors.otp_attempt ? html`<p class="field-error" id="otp_attempt-error" role="alert">${errors.otp_attempt}</p>` : ""}
${passwordField(c, "password", errors.password)}
<button type="submit">${tr("security.otp.enable")}</button>
</form>`;
  return sendSettingsPage(c, { title: tr("security.otp.heading"), body, current: METHODS, status: opts.status });
}

export function twoFactorRoutes(app: Hono<HonoEnv>): void {
  app.get(METHODS, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const done = c.req.query("done");
    const tr = t(c);
    const notice =
      done === "disabled"
        ? tr("security.methods.disabled")
        : done === "enabled"
          ? tr("security.otp.enabled")
          : undefined;
    return methodsPage(c, me, { notice });
  });

  app.get(OTP, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    if (await secondFactorEnabled(c.env.ctx, me.user.id)) return c.redirect(METHODS, 302);
    return otpSetupPage(c, me);
  });

  app.post(OTP, settingsThrottle(), async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const ctx = c.env.ctx;
    const tr = t(c);
    if (await secondFactorEnabled(ctx, me.user.id)) return c.redirect(METHODS, 302);
    if (!(await checkPassword(me.user, field(params, "password", 300)))) {
      return otpSetupPage(c, me, { status: 422, errors: { password: tr("security.wrong_password") } });
    }
    const codes = await confirmOtpSetup(ctx, me.user, field(params, "otp_attempt", 20));
    if (!codes) return otpSetupPage(c, me, { status: 422, errors: { otp_attempt: tr("security.otp.wrong_code") } });
    return recoveryCodesPage(c, codes, tr("security.otp.enabled"));
  });

  app.post("/settings/two_factor_authentication/recovery_codes", settingsThrottle(), async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const ctx = c.env.ctx;
    const tr = t(c);
    if (!(await secondFactorEnabled(ctx, me.user.id))) return c.redirect(METHODS, 302);
    if (!(await checkPassword(me.user, field(params, "password", 300)))) {
      return methodsPage(c, me, { status: 422, errors: { password: tr("security.wrong_password") } });
    }
    const codes = await regenerateRecoveryCodes(ctx, me.user.id);
    return recoveryCodesPage(c, codes, tr("security.recovery.regenerated"));
  });

  app.post("/settings/two_factor_authentication/disable", settingsThrottle(), async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const ctx = c.env.ctx;
    const tr = t(c);
    if (!(await secondFactorEnabled(ctx, me.user.id))) return c.redirect(METHODS, 302);
    // A code from the app, or the current password.
    const answer = field(params, "otp_attempt", 300);
    const ok =
      (/^\d{3}\s?\d{3}$/.test(answer.trim()) && (await verifyOtpCode(ctx, me.user.id, answer)) === "ok") ||
      (await checkPassword(me.user, answer));
    if (!ok) return methodsPage(c, me, { status: 422, errors: { otp_attempt: tr("security.methods.disable_wrong") } });
    await disableSecondFactor(ctx, me.user.id);
    return c.redirect(`${METHODS}?done=disabled`, 303);
  });
}
