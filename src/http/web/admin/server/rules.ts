import type { Context, Hono } from "hono";
import {
  createRule,
  deleteRule,
  findRule,
  moveRule,
  RULE_HINT_MAX,
  RULE_TEXT_MAX,
  type Rule,
  updateRule,
} from "../../../../services/instance/rules.ts";
import { getRules } from "../../../../services/instance/site-texts.ts";
import type { HonoEnv } from "../../../types.ts";
import { t } from "../../i18n/index.ts";
import { html } from "../../pages/html.ts";
import { csrfField } from "../../settings/forms.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { actingAs, buttonForm, done, found, refusal, textField } from "./shared.ts";

const PATH = "/admin/rules";
const P = Permission.manageRules;

function ruleFields(c: Context<HonoEnv>, v: { text: string; hint: string }) {
  const tr = t(c);
  return html`<label for="rule-text">${tr("admin.rules.text")}</label>
<input type="text" id="rule-text" name="text" value="${v.text}" required maxlength="${RULE_TEXT_MAX}">
<label for="rule-hint">${tr("admin.rules.hint")}</label>
<textarea id="rule-hint" name="hint" rows="3" maxlength="${RULE_HINT_MAX}">${v.hint}</textarea>`;
}

async function listPage(
  c: Context<HonoEnv>,
  me: Staff,
  error?: string,
  values = { text: "", hint: "" },
): Promise<Response> {
  const tr = t(c);
  const rules = await getRules(c.env.ctx);
  const item = (
    r: Rule,
    i: number,
  ) => html`<li data-id="${r.id}"><p><strong>${r.text}</strong>${r.hint ? html`<br><span class="hint">${r.hint}</span>` : ""}</p>
<div class="admin-actions"><a href="${PATH}/${r.id}/edit">${tr("admin.edit")}</a>
${i > 0 ? html`<form method="post" action="${PATH}/${r.id}/move">${csrfField(me.csrf)}<input type="hidden" name="direction" value="up"><button type="submit" aria-label="${tr("admin.rules.move_up_label", { n: i + 1 })}">${tr("admin.rules.move_up")}</button></form>` : ""}
${i < rules.length - 1 ? html`<form method="post" action="${PATH}/${r.id}/move">${csrfField(me.csrf)}<input type="hidden" name="direction" value="down"><button type="submit" aria-label="${tr("admin.rules.move_down_label", { n: i + 1 })}">${tr("admin.rules.move_down")}</button></form>` : ""}
${buttonForm(`${PATH}/${r.id}/delete`, me.csrf, tr("admin.delete"), "danger")}</div></li>`;
  const body = html`<h1>${tr("admin.rules.title")}</h1>
<p>${tr("admin.rules.intro")}</p>
${rules.length === 0 ? html`<p>${tr("admin.none")}</p>` : html`<ol class="admin-rules">${rules.map(item)}</ol>`}
<section class="admin-section" aria-labelledby="add-rule">
<h2 id="add-rule">${tr("admin.rules.add_heading")}</h2>
<form method="post" action="${PATH}">
${csrfField(me.csrf)}
${ruleFields(c, values)}
<p><button type="submit">${tr("admin.rules.add")}</button></p>
</form></section>`;
  return sendAdminPage(c, me, {
    title: tr("admin.rules.title"),
    body,
    current: PATH,
    notice: noticeFrom(c),
    error,
    status: error ? 422 : undefined,
  });
}

function editPage(c: Context<HonoEnv>, me: Staff, rule: Rule, values: Rule, error?: string): Promise<Response> {
  const tr = t(c);
  const body = html`<h1>${tr("admin.rules.edit")}</h1>
<form method="post" action="${PATH}/${rule.id}">
${csrfField(me.csrf)}
${ruleFields(c, values)}
<label for="rule-position">${tr("admin.rules.position")}</label>
<input type="number" id="rule-position" name="position" value="${values.position}" required>
<p><button type="submit">${tr("admin.save")}</button> <a href="${PATH}">${tr("admin.cancel")}</a></p>
</form>`;
  return sendAdminPage(c, me, {
    title: tr("admin.rules.edit"),
    body,
    current: PATH,
    error,
    status: error ? 422 : undefined,
  });
}

/** `/admin/rules`: the server's rules (Manage Rules). */
export function rulePages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  app.post(PATH, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const values = { text: textField(params, "text", 1000, true), hint: textField(params, "hint", 5000, true) };
    try {
      await createRule(c.env.ctx, actingAs(me), values);
    } catch (e) {
      return listPage(c, me, refusal(e), values);
    }
    return done(c, PATH, "admin.rules.added");
  });

  app.get(`${PATH}/:id/edit`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    const rule = await found(c, () => findRule(c.env.ctx, c.req.param("id")));
    if (rule instanceof Response) return rule;
    return editPage(c, me, rule, rule);
  });

  app.post(`${PATH}/:id`, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const rule = await found(c, () => findRule(c.env.ctx, c.req.param("id")));
    if (rule instanceof Response) return rule;
    const position = Number(textField(params, "position", 20, true));
    const values = {
      ...rule,
      text: textField(params, "text", 1000, true),
      hint: textField(params, "hint", 5000, true),
      position: Number.isSafeInteger(position) ? position : rule.position,
    };
    try {
      await updateRule(c.env.ctx, actingAs(me), rule.id, values);
    } catch (e) {
      return editPage(c, me, rule, values, refusal(e));
    }
    return done(c, PATH, "admin.rules.saved");
  });

  app.post(`${PATH}/:id/move`, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const direction = textField(params, "direction") === "up" ? "up" : "down";
    const r = await found(c, () => moveRule(c.env.ctx, actingAs(me), c.req.param("id"), direction));
    if (r instanceof Response) return r;
    return done(c, PATH, "admin.rules.moved");
  });

  app.post(`${PATH}/:id/delete`, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const r = await found(c, () => deleteRule(c.env.ctx, actingAs(form.me), c.req.param("id")));
    if (r instanceof Response) return r;
    return done(c, PATH, "admin.rules.deleted");
  });
}
