import type { Context, Hono } from "hono";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as ip from "../../../../services/moderation/ip-blocks.ts";
import type { Params } from "../../../oauth/params.ts";
import type { HonoEnv } from "../../../types.ts";
import { field } from "../../guard.ts";
import { t } from "../../i18n/index.ts";
import { html } from "../../pages/html.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { buttonForm, csrfField, done, formatDate, notFoundPage, paged, refusal, windowOf } from "./common.ts";

const PATH = "/admin/ip_blocks";
const P = Permission.manageBlocks;
/** Mastodon's expiry choices, in seconds ("" never expires). */
const EXPIRIES = ["", "86400", "1209600", "2592000", "15778476", "31556952"] as const;

interface IpValues {
  ip: string;
  severity: string;
  comment: string;
  /** Seconds, "" for never, "keep" for the current expiry (editing). */
  expiresIn: string;
}

const severityKey = (s: string) => `admin.blocks.ip_severity.${s as ip.IpBlockSeverity}` as const;

function posted(params: Params): IpValues {
  return {
    ip: field(params, "ip", 100).trim(),
    severity: field(params, "severity", 40),
    comment: field(params, "comment", 10_000),
    expiresIn: field(params, "expires_in", 20),
  };
}

/** The service's input: the expiry only when one was chosen ("keep" leaves it). */
function inputOf(v: IpValues): ip.IpBlockInput {
  const expiresIn =
    v.expiresIn === "keep" ? undefined : v.expiresIn === "" ? null : Number.parseInt(v.expiresIn, 10) || null;
  return { ip: v.ip, severity: v.severity, comment: v.comment, expiresIn };
}

async function listPage(c: Context<HonoEnv>, me: Staff): Promise<Response> {
  const tr = t(c);
  const { rows, older } = paged(c, await ip.listIpBlocks(c.env.ctx, windowOf(c)), PATH);
  const now = new Date().toISOString();
  const body = html`<h1>${tr("admin.blocks.ip_title")}</h1>
<p>${tr("admin.blocks.ip_intro")}</p>
<p class="admin-actions"><a class="button" href="${PATH}/new">${tr("admin.blocks.ip_new")}</a></p>
${
  rows.length === 0
    ? html`<p class="muted">${tr("admin.none")}</p>`
    : html`<table class="admin-table ip-blocks">
<thead><tr><th scope="col">${tr("admin.blocks.ip")}</th><th scope="col">${tr("admin.blocks.ip_severity")}</th><th scope="col">${tr("admin.blocks.comment")}</th><th scope="col">${tr("admin.blocks.expires")}</th><th scope="col"><span class="visually-hidden">${tr("admin.federation.actions")}</span></th></tr></thead>
<tbody>
${rows.map(
  (b) => html`<tr data-ip="${b.ip}"><td><code>${b.ip}</code></td>
<td><span class="badge${b.severity === "no_access" ? " bad" : " warn"}">${tr(severityKey(b.severity))}</span></td>
<td>${b.comment}</td>
<td>${b.expiresAt === null ? tr("admin.blocks.never") : b.expiresAt <= now ? tr("admin.blocks.expired") : formatDate(tr.locale, b.expiresAt, true)}</td>
<td class="admin-actions"><a href="${PATH}/${b.id}/edit">${tr("admin.edit")}<span class="visually-hidden"> ${b.ip}</span></a>
${buttonForm(`${PATH}/${b.id}/delete`, me.csrf, tr("admin.blocks.remove"), b.ip)}</td></tr>`,
)}
</tbody></table>`
}
${older}`;
  return sendAdminPage(c, me, { title: tr("admin.blocks.ip_title"), body, current: PATH, notice: noticeFrom(c) });
}

function formPage(
  c: Context<HonoEnv>,
  me: Staff,
  v: IpValues,
  opts: { block?: ip.IpBlock; error?: string; status?: number },
): Promise<Response> {
  const tr = t(c);
  const editing = opts.block;
  const title = editing ? tr("admin.blocks.ip_edit", { ip: editing.ip }) : tr("admin.blocks.ip_new");
  const action = editing ? `${PATH}/${editing.id}` : PATH;
  const body = html`<h1>${title}</h1>
<form method="post" action="${action}" class="settings-form ip-block-form">
${csrfField(me.csrf)}
<label for="ip">${tr("admin.blocks.ip")}</label>
<input type="text" id="ip" name="ip" value="${v.ip}" required maxlength="100" autocomplete="off" aria-describedby="ip-hint">
<p class="hint" id="ip-hint">${tr("admin.blocks.ip_hint")}</p>
<fieldset>
<legend>${tr("admin.blocks.ip_severity")}</legend>
${ip.IP_BLOCK_SEVERITIES.map(
  (s) =>
    html`<label class="check" for="severity_${s}"><input type="radio" id="severity_${s}" name="severity" value="${s}"${v.severity === s ? html` checked` : ""}><span>${tr(severityKey(s))}<span class="hint">${tr(`admin.blocks.ip_severity_hint.${s}`)}</span></span></label>`,
)}
</fieldset>
<label for="expires_in">${tr("admin.blocks.expires_in")}</label>
<select id="expires_in" name="expires_in">
${editing?.expiresAt ? html`<option value="keep"${v.expiresIn === "keep" ? html` selected` : ""}>${tr("admin.blocks.keep_expiry", { date: formatDate(tr.locale, editing.expiresAt, true) })}</option>` : ""}
${EXPIRIES.map((s) => html`<option value="${s}"${v.expiresIn === s ? html` selected` : ""}>${tr(`admin.blocks.expiry.${s === "" ? "never" : s}`)}</option>`)}
</select>
<label for="comment">${tr("admin.blocks.comment")}</label>
<textarea id="comment" name="comment" rows="2" maxlength="10000">${v.comment}</textarea>
<div class="actions"><button type="submit">${editing ? tr("admin.save") : tr("admin.blocks.ip_create")}</button> <a href="${PATH}">${tr("admin.cancel")}</a></div>
</form>`;
  return sendAdminPage(c, me, { title, body, current: PATH, error: opts.error, status: opts.status });
}

/** The moderation panel's IP rules (Manage Blocks, as the admin API's). */
export function ipBlockPages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  app.get(`${PATH}/new`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return formPage(c, me, { ip: "", severity: "sign_up_requires_approval", comment: "", expiresIn: "31556952" }, {});
  });

  app.post(PATH, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const v = posted(f.params);
    try {
      await ip.createIpBlock(c.env.ctx, moderatorOf(f.me.account), inputOf(v));
    } catch (e) {
      const r = refusal(e);
      if (!r) throw e;
      return formPage(c, f.me, v, { error: r.message, status: 422 });
    }
    return done(c, PATH, "admin.blocks.ip_created");
  });

  const blockOf = async (c: Context<HonoEnv>) => {
    try {
      return await ip.findIpBlock(c.env.ctx, c.req.param("id") ?? "");
    } catch (e) {
      if (refusal(e)) return undefined;
      throw e;
    }
  };

  app.get(`${PATH}/:id/edit`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    const block = await blockOf(c);
    if (!block) return notFoundPage(c);
    const v = {
      ip: block.ip,
      severity: block.severity,
      comment: block.comment,
      expiresIn: block.expiresAt ? "keep" : "",
    };
    return formPage(c, me, v, { block });
  });

  app.post(`${PATH}/:id`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const block = await blockOf(c);
    if (!block) return notFoundPage(c);
    const v = posted(f.params);
    try {
      await ip.updateIpBlock(c.env.ctx, moderatorOf(f.me.account), block, inputOf(v));
    } catch (e) {
      const r = refusal(e);
      if (!r) throw e;
      return formPage(c, f.me, v, { block, error: r.message, status: 422 });
    }
    return done(c, PATH, "admin.blocks.ip_updated");
  });

  app.post(`${PATH}/:id/delete`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const block = await blockOf(c);
    if (!block) return notFoundPage(c);
    await ip.destroyIpBlock(c.env.ctx, moderatorOf(f.me.account), block);
    return done(c, PATH, "admin.blocks.ip_removed");
  });
}
