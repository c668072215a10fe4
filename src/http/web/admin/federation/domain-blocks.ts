import type { Context, Hono } from "hono";
import { knownAccountCount } from "../../../../services/federation/instances.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as domains from "../../../../services/moderation/domain-blocks.ts";
import type { Params } from "../../../oauth/params.ts";
import type { HonoEnv } from "../../../types.ts";
import { checked, field } from "../../guard.ts";
import { t } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { buttonForm, checkbox, csrfField, done, formatDate, notFoundPage, paged, refusal, windowOf } from "./common.ts";

const PATH = "/admin/domain_blocks";
const P = Permission.manageFederation;
const SEVERITIES = ["noop", "silence", "suspend"] as const;

/** The form's values (as posted, or of the block being edited). */
interface BlockValues {
  domain: string;
  severity: string;
  rejectMedia: boolean;
  rejectReports: boolean;
  privateComment: string;
  publicComment: string;
  obfuscate: boolean;
}

const blank: BlockValues = {
  domain: "",
  severity: "silence",
  rejectMedia: false,
  rejectReports: false,
  privateComment: "",
  publicComment: "",
  obfuscate: false,
};

function valuesOf(b: domains.InstanceDomainBlock): BlockValues {
  return {
    domain: b.domain,
    severity: b.severity,
    rejectMedia: b.rejectMedia,
    rejectReports: b.rejectReports,
    privateComment: b.privateComment ?? "",
    publicComment: b.publicComment ?? "",
    obfuscate: b.obfuscate,
  };
}

function posted(params: Params): BlockValues {
  const severity = field(params, "severity", 20);
  return {
    domain: field(params, "domain", 300).trim(),
    severity: (SEVERITIES as readonly string[]).includes(severity) ? severity : "silence",
    rejectMedia: checked(params, "reject_media"),
    rejectReports: checked(params, "reject_reports"),
    privateComment: field(params, "private_comment"),
    publicComment: field(params, "public_comment"),
    obfuscate: checked(params, "obfuscate"),
  };
}

const patchOf = (v: BlockValues): domains.DomainBlockPatch => ({
  severity: v.severity as domains.DomainBlockSeverity,
  rejectMedia: v.rejectMedia,
  rejectReports: v.rejectReports,
  privateComment: v.privateComment.trim() === "" ? null : v.privateComment,
  publicComment: v.publicComment.trim() === "" ? null : v.publicComment,
  obfuscate: v.obfuscate,
});

/** The hidden fields carrying a form's values through the confirmation step. */
function carried(v: BlockValues, withDomain: boolean): SafeHtml {
  const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;
  const flag = (name: string, on: boolean) => (on ? hidden(name, "1") : "");
  return html`${withDomain ? hidden("domain", v.domain) : ""}${hidden("severity", v.severity)}${flag("reject_media", v.rejectMedia)}${flag("reject_reports", v.rejectReports)}${hidden("private_comment", v.privateComment)}${hidden("public_comment", v.publicComment)}${flag("obfuscate", v.obfuscate)}`;
}

function severityBadge(c: Context<HonoEnv>, severity: string): SafeHtml {
  const tr = t(c);
  const cls = severity === "suspend" ? "badge bad" : severity === "silence" ? "badge warn" : "badge";
  return html`<span class="${cls}">${tr(`admin.federation.severity.${severity as (typeof SEVERITIES)[number]}`)}</span>`;
}

async function listPage(c: Context<HonoEnv>, me: Staff): Promise<Response> {
  const tr = t(c);
  const { rows, older } = paged(c, await domains.listDomainBlocks(c.env.ctx, windowOf(c)), PATH);
  const body = html`<h1>${tr("admin.federation.blocks_title")}</h1>
<p>${tr("admin.federation.blocks_intro")}</p>
<p class="admin-actions"><a class="button" href="${PATH}/new">${tr("admin.federation.block_new")}</a></p>
${
  rows.length === 0
    ? html`<p class="muted">${tr("admin.none")}</p>`
    : html`<table class="admin-table domain-blocks">
<thead><tr><th scope="col">${tr("admin.federation.domain")}</th><th scope="col">${tr("admin.federation.severity")}</th><th scope="col">${tr("admin.federation.rejects")}</th><th scope="col">${tr("admin.federation.public_comment")}</th><th scope="col">${tr("admin.federation.created_at")}</th><th scope="col"><span class="visually-hidden">${tr("admin.federation.actions")}</span></th></tr></thead>
<tbody>
${rows.map(
  (b) => html`<tr data-domain="${b.domain}">
<td><a href="/admin/instances/${encodeURIComponent(b.domain)}">${b.domain}</a>${b.obfuscate ? html` <span class="badge">${tr("admin.federation.obfuscated")}</span>` : ""}</td>
<td>${severityBadge(c, b.severity)}</td>
<td>${[b.rejectMedia ? tr("admin.federation.reject_media_short") : "", b.rejectReports ? tr("admin.federation.reject_reports_short") : ""].filter(Boolean).join(", ")}</td>
<td>${b.publicComment ?? ""}</td>
<td>${formatDate(tr.locale, b.createdAt)}</td>
<td class="admin-actions"><a href="${PATH}/${b.id}/edit">${tr("admin.edit")}<span class="visually-hidden"> ${b.domain}</span></a>
${buttonForm(`${PATH}/${b.id}/delete`, me.csrf, tr("admin.federation.unblock"), b.domain)}</td>
</tr>`,
)}
</tbody></table>`
}
${older}`;
  return sendAdminPage(c, me, {
    title: tr("admin.federation.blocks_title"),
    body,
    current: PATH,
    notice: noticeFrom(c),
  });
}

function formPage(
  c: Context<HonoEnv>,
  me: Staff,
  v: BlockValues,
  opts: { block?: domains.InstanceDomainBlock; error?: string; status?: number },
): Promise<Response> {
  const tr = t(c);
  const editing = opts.block;
  const action = editing ? `${PATH}/${editing.id}` : PATH;
  const title = editing
    ? tr("admin.federation.block_edit", { domain: editing.domain })
    : tr("admin.federation.block_new");
  const body = html`<h1>${title}</h1>
<form method="post" action="${action}" class="settings-form domain-block-form">
${csrfField(me.csrf)}
${
  editing
    ? ""
    : html`<label for="domain">${tr("admin.federation.domain")}</label>
<input type="text" id="domain" name="domain" value="${v.domain}" required maxlength="253" autocomplete="off" aria-describedby="domain-hint">
<p class="hint" id="domain-hint">${tr("admin.federation.domain_hint")}</p>`
}
<fieldset>
<legend>${tr("admin.federation.severity")}</legend>
${SEVERITIES.map(
  (s) =>
    html`<label class="check" for="severity_${s}"><input type="radio" id="severity_${s}" name="severity" value="${s}"${v.severity === s ? html` checked` : ""}><span>${tr(`admin.federation.severity.${s}`)}<span class="hint">${tr(`admin.federation.severity_hint.${s}`)}</span></span></label>`,
)}
</fieldset>
${checkbox({ id: "reject_media", name: "reject_media", label: tr("admin.federation.reject_media"), checked: v.rejectMedia, hint: tr("admin.federation.reject_media_hint") })}
${checkbox({ id: "reject_reports", name: "reject_reports", label: tr("admin.federation.reject_reports"), checked: v.rejectReports, hint: tr("admin.federation.reject_reports_hint") })}
${checkbox({ id: "obfuscate", name: "obfuscate", label: tr("admin.federation.obfuscate"), checked: v.obfuscate, hint: tr("admin.federation.obfuscate_hint") })}
<label for="private_comment">${tr("admin.federation.private_comment")}</label>
<textarea id="private_comment" name="private_comment" rows="3" maxlength="10000" aria-describedby="private_comment-hint">${v.privateComment}</textarea>
<p class="hint" id="private_comment-hint">${tr("admin.federation.private_comment_hint")}</p>
<label for="public_comment">${tr("admin.federation.public_comment")}</label>
<textarea id="public_comment" name="public_comment" rows="3" maxlength="10000" aria-describedby="public_comment-hint">${v.publicComment}</textarea>
<p class="hint" id="public_comment-hint">${tr("admin.federation.public_comment_hint")}</p>
<div class="actions"><button type="submit">${editing ? tr("admin.save") : tr("admin.federation.block_create")}</button> <a href="${PATH}">${tr("admin.cancel")}</a></div>
</form>`;
  return sendAdminPage(c, me, { title, body, current: PATH, error: opts.error, status: opts.status });
}

/** What a new severity does to the server's known accounts, in a sentence or two. */
async function consequences(
  c: Context<HonoEnv>,
  domain: string,
  from: string | undefined,
  to: string,
): Promise<string[]> {
  const tr = t(c);
  const accounts = await knownAccountCount(c.env.ctx, domain);
  const out: string[] = [];
  if (from === "suspend") out.push(tr("admin.federation.effect.unsuspend", { domain }));
  if (from === "silence" && to !== "silence") out.push(tr("admin.federation.effect.unsilence", { domain }));
  if (to === "suspend") out.push(tr.plural("admin.federation.effect.suspend", accounts, { domain }));
  if (to === "silence" && from !== "silence")
    out.push(tr.plural("admin.federation.effect.silence", accounts, { domain }));
  if (to === "noop" && out.length === 0) out.push(tr("admin.federation.effect.noop", { domain }));
  return out;
}

/** The confirmation step of a severity change (or of a new suspension): what will happen, and go or back. */
async function confirmPage(
  c: Context<HonoEnv>,
  me: Staff,
  v: BlockValues,
  block: domains.InstanceDomainBlock | undefined,
): Promise<Response> {
  const tr = t(c);
  const domain = block?.domain ?? v.domain;
  const title = tr("admin.federation.confirm_title", { domain });
  const effects = await consequences(c, domain, block?.severity, v.severity);
  const action = block ? `${PATH}/${block.id}` : PATH;
  const back = block ? `${PATH}/${block.id}/edit` : `${PATH}/new?domain=${encodeURIComponent(domain)}`;
  const change = block
    ? tr("admin.federation.confirm_change", {
        from: tr(`admin.federation.severity.${block.severity}`),
        to: tr(`admin.federation.severity.${v.severity as (typeof SEVERITIES)[number]}`),
      })
    : tr("admin.federation.confirm_new", {
        severity: tr(`admin.federation.severity.${v.severity as (typeof SEVERITIES)[number]}`),
      });
  const body = html`<h1>${title}</h1>
<p>${change}</p>
<ul class="block-effects">${effects.map((e) => html`<li>${e}</li>`)}</ul>
<form method="post" action="${action}" class="admin-actions">
${csrfField(me.csrf)}${carried(v, !block)}<input type="hidden" name="confirm" value="1">
<button type="submit" class="${v.severity === "suspend" ? "danger" : ""}">${tr("admin.federation.confirm_button")}</button>
<a href="${back}">${tr("admin.cancel")}</a>
</form>`;
  return sendAdminPage(c, me, { title, body, current: PATH });
}

/** The moderation panel's domain blocks (Manage Federation, as the admin API's). */
export function domainBlockPages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  app.get(`${PATH}/new`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return formPage(c, me, { ...blank, domain: (c.req.query("domain") ?? "").slice(0, 253) }, {});
  });

  app.post(PATH, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const { me, params } = f;
    const ctx = c.env.ctx;
    const v = posted(params);
    try {
      const domain = domains.blockDomain(ctx, v.domain);
      const input: domains.DomainBlockInput = { domain, ...(patchOf(v) as Required<domains.DomainBlockPatch>) };
      // A conflict is told before the confirmation step (the service checks again).
      const existing = await domains.ruleFor(ctx, domain);
      if (existing && (existing.domain === domain || !domains.stricterThan(input, existing))) {
        const error = t(c)("admin.federation.conflict", { domain: existing.domain });
        return formPage(c, me, v, { error, status: 422 });
      }
      if (v.severity === "suspend" && field(params, "confirm") !== "1")
        return confirmPage(c, me, { ...v, domain }, undefined);
      await domains.createDomainBlock(ctx, moderatorOf(me.account), input);
      return done(c, PATH, "admin.federation.block_created");
    } catch (e) {
      const r = refusal(e);
      if (!r) throw e;
      return formPage(c, me, v, { error: r.message, status: 422 });
    }
  });

  const blockOf = async (c: Context<HonoEnv>) => {
    try {
      return await domains.findDomainBlock(c.env.ctx, c.req.param("id") ?? "");
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
    return formPage(c, me, valuesOf(block), { block });
  });

  app.post(`${PATH}/:id`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const { me, params } = f;
    const block = await blockOf(c);
    if (!block) return notFoundPage(c);
    const v = { ...posted(params), domain: block.domain };
    if (v.severity !== block.severity && field(params, "confirm") !== "1") return confirmPage(c, me, v, block);
    try {
      await domains.updateDomainBlock(c.env.ctx, moderatorOf(me.account), block, patchOf(v));
    } catch (e) {
      const r = refusal(e);
      if (!r) throw e;
      return formPage(c, me, v, { block, error: r.message, status: 422 });
    }
    return done(c, PATH, "admin.federation.block_updated");
  });

  app.post(`${PATH}/:id/delete`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const block = await blockOf(c);
    if (!block) return notFoundPage(c);
    await domains.destroyDomainBlock(c.env.ctx, moderatorOf(f.me.account), block);
    return done(c, PATH, "admin.federation.block_removed");
  });
}
