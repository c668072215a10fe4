import type { Context, Hono } from "hono";
import {
  addAlias,
  aliasesOf,
  cancelRedirect,
  type MovingProblem,
  migrationState,
  moveTo,
  removeAlias,
} from "../../../services/data/moving.ts";
import { throttle } from "../../middleware/rate-limit.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm, requireUser, type SignedIn } from "../guard.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { sendSettingsPage } from "../settings/layout.ts";
import { csrfField, dateText, fieldError, invalidAttrs, num } from "./format.ts";

const ALIASES = "/settings/aliases";
const MIGRATION = "/settings/migration";
const FIVE_MIN = 5 * 60_000;

const problemText = (c: Context<HonoEnv>, p: MovingProblem) => t(c)(`data.moving.error.${p}` as MessageKey);

async function aliasesPage(
  c: Context<HonoEnv>,
  me: SignedIn,
  opts: { acct?: string; error?: string; notice?: string; status?: number } = {},
): Promise<Response> {
  const tr = t(c);
  const aliases = await aliasesOf(c.env.ctx, me.account);
  const list =
    aliases.length === 0
      ? html`<p class="muted">${tr("data.aliases.none")}</p>`
      : html`<ul class="data-list">
${aliases.map((a) => {
  const label = a.acct ?? a.uri;
  return html`<li><span>${label}</span><form method="post" action="${ALIASES}/delete">${csrfField(me.csrf)}<input type="hidden" name="uri" value="${a.uri}"><button type="submit" class="secondary" aria-label="${tr("data.aliases.remove_label", { acct: label })}">${tr("data.aliases.remove")}</button></form></li>\n`;
})}</ul>`;
  const body = html`<h1>${tr("data.aliases.title")}</h1>
<p>${tr("data.aliases.intro")}</p>
<form method="post" action="${ALIASES}">
${csrfField(me.csrf)}
<label for="alias-acct">${tr("data.aliases.acct")}</label>
<input type="text" id="alias-acct" name="acct" value="${opts.acct ?? ""}" required autocomplete="off" spellcheck="false"${invalidAttrs("alias-acct-error", opts.error, "alias-acct-hint")}>
<p class="hint" id="alias-acct-hint">${tr("data.aliases.acct_hint")}</p>
${fieldError("alias-acct-error", opts.error)}
<button type="submit">${tr("data.aliases.add")}</button>
</form>
<h2>${tr("data.aliases.list")}</h2>
${list}`;
  return sendSettingsPage(c, {
    title: tr("data.aliases.title"),
    body,
    current: ALIASES,
    notice: opts.notice,
    status: opts.status,
  });
}

async function migrationPage(
  c: Context<HonoEnv>,
  me: SignedIn,
  opts: {
    acct?: string;
    error?: { field: "acct" | "password"; message: string };
    notice?: string;
    status?: number;
  } = {},
): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const state = await migrationState(ctx, me.account);
  const acctOf = (a: { username: string; domain: string | null }) =>
    `${a.username}@${a.domain ?? ctx.config.localDomain}`;
  const acctError = opts.error?.field === "acct" ? opts.error.message : undefined;
  const passwordError = opts.error?.field === "password" ? opts.error.message : undefined;
  const redirect = state.movedTo
    ? html`<p id="redirect-state">${tr("data.migration.redirect_state", { acct: acctOf(state.movedTo) })}</p>
<form method="post" action="${MIGRATION}/cancel">${csrfField(me.csrf)}<button type="submit" class="secondary" aria-describedby="cancel-hint">${tr("data.migration.cancel")}</button></form>
<p class="hint" id="cancel-hint">${tr("data.migration.cancel_hint")}</p>`
    : html`<p id="redirect-state">${tr("data.migration.no_redirect")}</p>`;
  const form = state.cooldownUntil
    ? html`${opts.error ? html`<p class="error" role="alert">${opts.error.message}</p>` : ""}
<p class="muted">${tr("data.migration.cooldown", { date: dateText(tr, state.cooldownUntil) })}</p>`
    : html`<form method="post" action="${MIGRATION}">
${csrfField(me.csrf)}
<label for="migration-acct">${tr("data.migration.acct")}</label>
<input type="text" id="migration-acct" name="acct" value="${opts.acct ?? ""}" required autocomplete="off" spellcheck="false"${invalidAttrs("migration-acct-error", acctError, "migration-acct-hint")}>
<p class="hint" id="migration-acct-hint">${tr("data.migration.acct_hint")}</p>
${fieldError("migration-acct-error", acctError)}
<label for="migration-password">${tr("data.migration.password")}</label>
<input type="password" id="migration-password" name="current_password" required autocomplete="current-password"${invalidAttrs("migration-password-error", passwordError)}>
${fieldError("migration-password-error", passwordError)}
<button type="submit" class="danger">${tr("data.migration.submit")}</button>
</form>`;
  const history =
    state.migrations.length === 0
      ? html``
      : html`<h2>${tr("data.migration.history")}</h2><ul class="data-list">
${state.migrations.map(
  (m) =>
    html`<li>${tr("data.migration.history_row", {
      acct: m.target ? acctOf(m.target) : m.acct,
      date: dateText(tr, new Date(m.createdAt)),
      followers: num(tr, m.followersCount),
    })}</li>\n`,
)}</ul>`;
  const body = html`<h1>${tr("data.migration.title")}</h1>
${redirect}
<p>${tr("data.migration.intro")}</p>
${form}
${history}
<h2>${tr("data.migration.from_elsewhere")}</h2>
<p>${tr("data.migration.from_elsewhere_text")} <a href="${ALIASES}">${tr("data.migration.aliases_link")}</a></p>`;
  return sendSettingsPage(c, {
    title: tr("data.migration.title"),
    body,
    current: MIGRATION,
    notice: opts.notice,
    status: opts.status,
  });
}

/** `/settings/aliases` and `/settings/migration`: moving here from elsewhere, and moving away. */
export function movingRoutes(app: Hono<HonoEnv>): void {
  app.get(ALIASES, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return aliasesPage(c, me);
  });

  app.post(ALIASES, throttle("web_aliases", 30, FIVE_MIN), async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const acct = field(params, "acct", 500);
    const problem = await addAlias(c.env.ctx, me.account, acct);
    if (problem) return aliasesPage(c, me, { acct, error: problemText(c, problem), status: 422 });
    return aliasesPage(c, me, { notice: t(c)("data.aliases.added") });
  });

  app.post(`${ALIASES}/delete`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    await removeAlias(c.env.ctx, me.account, field(params, "uri", 2000));
    return aliasesPage(c, me, { notice: t(c)("data.aliases.removed") });
  });

  app.get(MIGRATION, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return migrationPage(c, me);
  });

  // Password attempts are bounded as sign-in's are.
  app.post(MIGRATION, throttle("web_migration", 10, FIVE_MIN), async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const acct = field(params, "acct", 500);
    const out = await moveTo(c.env.ctx, me.user, me.account, {
      acct,
      password: field(params, "current_password", 1000),
    });
    if ("problem" in out) {
      const message = problemText(c, out.problem);
      const status = out.problem === "on_cooldown" ? 429 : 422;
      const where = out.problem === "wrong_password" ? "password" : "acct";
      return migrationPage(c, me, { acct, error: { field: where, message }, status });
    }
    const target = `${out.target.username}@${out.target.domain ?? c.env.ctx.config.localDomain}`;
    return migrationPage(c, me, { notice: t(c)("data.migration.moved", { acct: target }) });
  });

  app.post(`${MIGRATION}/cancel`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    await cancelRedirect(c.env.ctx, me.account);
    return migrationPage(c, me, { notice: t(c)("data.migration.cancelled") });
  });
}
