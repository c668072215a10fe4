import type { Context } from "hono";
import { deleteOwnAccount } from "../../../services/accounts/self-delete.ts";
import type { HonoEnv } from "../../types.ts";
import { checked, field, readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { endSession } from "../session.ts";
import { sendSettingsPage } from "../settings/layout.ts";
import { csrfField, type FormErrors, fieldError, inputField, limitExceeded, messagePage } from "./forms.ts";

const FIVE_MIN = 5 * 60 * 1000;

function deletePage(c: Context<HonoEnv>, me: SignedIn, errors: FormErrors = {}, status?: number): Response {
  const tr = t(c);
  const domain = c.env.ctx.config.localDomain;
  const body = html`<h1>${tr("auth.delete.title")}</h1>
<p>${tr("auth.delete.intro", { handle: `@${me.account.username}@${domain}` })}</p>
<ul>
<li>${tr("auth.delete.point_posts")}</li>
<li>${tr("auth.delete.point_name")}</li>
<li>${tr("auth.delete.point_remote")}</li>
<li>${tr("auth.delete.point_final")}</li>
</ul>
<form method="post" action="/settings/delete" novalidate>
${csrfField(me.csrf)}
${inputField({ name: "password", type: "password", label: tr("auth.field.current_password"), error: errors.password, autocomplete: "current-password", required: true })}
<label class="check" for="confirm"><input type="checkbox" id="confirm" name="confirm" value="1" required${errors.confirm ? html` aria-invalid="true" aria-describedby="confirm-error"` : ""}><span>${tr("auth.delete.confirm")}</span></label>
${fieldError("confirm", errors.confirm)}
<button type="submit" class="danger">${tr("auth.delete.submit")}</button>
</form>`;
  return sendSettingsPage(c, { title: tr("auth.delete.title"), body, current: "/settings/delete", status });
}

/** `GET /settings/delete`: what deleting the account means, and the form. */
export async function showDelete(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  return deletePage(c, me);
}

/** `POST /settings/delete`: deletes the account after the password (and the confirmation box); then signs out. */
export async function submitDelete(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const params = await readForm(c, me.session);
  if (params instanceof Response) return params;
  const limited = await limitExceeded(c, "deletes", 25, FIVE_MIN);
  if (limited) return limited;
  const tr = t(c);
  const errors: FormErrors = {};
  if (!checked(params, "confirm")) errors.confirm = tr("auth.delete.confirm_missing");
  const password = field(params, "password", 1000);
  if (Object.keys(errors).length === 0 && !(await deleteOwnAccount(c.env.ctx, me, password))) {
    errors.password = tr("auth.error.current_password.ERR_INVALID");
  }
  if (Object.keys(errors).length > 0) return deletePage(c, me, errors, 422);
  await endSession(c);
  return messagePage(c, { title: tr("auth.delete.done_title"), text: tr("auth.delete.done_text") });
}
