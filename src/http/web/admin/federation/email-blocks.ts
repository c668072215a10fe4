import type { Context, Hono } from "hono";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import { emailDomainBlocksJson } from "../../../../services/moderation/block-views.ts";
import * as blocks from "../../../../services/moderation/sign-up-blocks.ts";
import type { HonoEnv } from "../../../types.ts";
import { checked, field } from "../../guard.ts";
import { t } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { buttonForm, checkbox, csrfField, done, formatDate, notFoundPage, paged, refusal, windowOf } from "./common.ts";

const EMAIL = "/admin/email_domain_blocks";
const CANONICAL = "/admin/canonical_email_blocks";
const P = Permission.manageBlocks;

interface PageOpts {
  error?: string;
  status?: number;
  values?: Record<string, string | boolean>;
  /** The canonical test's result, shown above the list. */
  result?: SafeHtml;
}

async function emailPage(c: Context<HonoEnv>, me: Staff, opts: PageOpts = {}): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const { rows, older } = paged(c, await blocks.listEmailDomainBlocks(ctx, windowOf(c)), EMAIL);
  const json = await emailDomainBlocksJson(ctx, rows);
  const v = opts.values ?? {};
  const body = html`<h1>${tr("admin.blocks.email_title")}</h1>
<p>${tr("admin.blocks.email_intro")}</p>
<form method="post" action="${EMAIL}" class="settings-form">
${csrfField(me.csrf)}
<label for="domain">${tr("admin.blocks.email_domain")}</label>
<input type="text" id="domain" name="domain" value="${String(v.domain ?? "")}" required maxlength="253" autocomplete="off">
${checkbox({ id: "allow_with_approval", name: "allow_with_approval", label: tr("admin.blocks.allow_with_approval"), checked: v.allow_with_approval === true, hint: tr("admin.blocks.allow_with_approval_hint") })}
<div class="actions"><button type="submit">${tr("admin.blocks.email_add")}</button></div>
</form>
${
  json.length === 0
    ? html`<p class="muted">${tr("admin.none")}</p>`
    : html`<table class="admin-table email-domain-blocks">
<thead><tr><th scope="col">${tr("admin.blocks.email_domain")}</th><th scope="col">${tr("admin.blocks.mode")}</th><th scope="col" class="num">${tr("admin.blocks.attempts")}</th><th scope="col">${tr("admin.federation.created_at")}</th><th scope="col"><span class="visually-hidden">${tr("admin.federation.actions")}</span></th></tr></thead>
<tbody>
${json.map((b) => {
  const attempts = b.history.reduce((n, d) => n + Number(d.uses), 0);
  return html`<tr data-domain="${b.domain}"><td>${b.domain}</td>
<td>${b.allow_with_approval ? html`<span class="badge warn">${tr("admin.blocks.needs_approval")}</span>` : html`<span class="badge bad">${tr("admin.blocks.blocked")}</span>`}</td>
<td class="num">${attempts}</td>
<td>${formatDate(tr.locale, b.created_at)}</td>
<td>${buttonForm(`${EMAIL}/${b.id}/delete`, me.csrf, tr("admin.blocks.remove"), b.domain)}</td></tr>`;
})}
</tbody></table>`
}
${older}`;
  return sendAdminPage(c, me, {
    title: tr("admin.blocks.email_title"),
    body,
    current: EMAIL,
    notice: noticeFrom(c),
    error: opts.error,
    status: opts.status,
  });
}

async function canonicalPage(c: Context<HonoEnv>, me: Staff, opts: PageOpts = {}): Promise<Response> {
  const tr = t(c);
  const { rows, older } = paged(c, await blocks.listCanonicalEmailBlocks(c.env.ctx, windowOf(c)), CANONICAL);
  const v = opts.values ?? {};
  const body = html`<h1>${tr("admin.blocks.canonical_title")}</h1>
<p>${tr("admin.blocks.canonical_intro")}</p>
<section class="admin-section">
<h2>${tr("admin.blocks.canonical_add")}</h2>
<form method="post" action="${CANONICAL}" class="settings-form">
${csrfField(me.csrf)}
<label for="email">${tr("admin.blocks.address")}</label>
<input type="email" id="email" name="email" value="${String(v.email ?? "")}" maxlength="320" autocomplete="off">
<label for="canonical_email_hash">${tr("admin.blocks.hash")}</label>
<input type="text" id="canonical_email_hash" name="canonical_email_hash" value="${String(v.canonical_email_hash ?? "")}" maxlength="64" autocomplete="off" aria-describedby="hash-hint">
<p class="hint" id="hash-hint">${tr("admin.blocks.hash_hint")}</p>
<div class="actions"><button type="submit">${tr("admin.blocks.canonical_add")}</button></div>
</form>
</section>
<section class="admin-section">
<h2>${tr("admin.blocks.test_title")}</h2>
<form method="post" action="${CANONICAL}/test" class="admin-filters">
${csrfField(me.csrf)}
<label for="test_email">${tr("admin.blocks.address")}<input type="email" id="test_email" name="email" value="${String(v.test ?? "")}" required maxlength="320" autocomplete="off"></label>
<button type="submit">${tr("admin.blocks.test")}</button>
</form>
${opts.result ?? ""}
</section>
${
  rows.length === 0
    ? html`<p class="muted">${tr("admin.none")}</p>`
    : html`<table class="admin-table canonical-email-blocks">
<thead><tr><th scope="col">${tr("admin.blocks.hash")}</th><th scope="col">${tr("admin.federation.created_at")}</th><th scope="col"><span class="visually-hidden">${tr("admin.federation.actions")}</span></th></tr></thead>
<tbody>
${rows.map(
  (b) => html`<tr data-hash="${b.canonicalEmailHash}"><td><code>${b.canonicalEmailHash}</code></td>
<td>${formatDate(tr.locale, b.createdAt)}</td>
<td>${buttonForm(`${CANONICAL}/${b.id}/delete`, me.csrf, tr("admin.blocks.remove"), b.canonicalEmailHash)}</td></tr>`,
)}
</tbody></table>`
}
${older}`;
  return sendAdminPage(c, me, {
    title: tr("admin.blocks.canonical_title"),
    body,
    current: CANONICAL,
    notice: noticeFrom(c),
    error: opts.error,
    status: opts.status,
  });
}

/** The moderation panel's e-mail domain blocks and canonical e-mail blocks (Manage Blocks). */
export function emailBlockPages(app: Hono<HonoEnv>): void {
  app.get(EMAIL, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return emailPage(c, me);
  });

  app.post(EMAIL, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const domain = field(f.params, "domain", 300);
    const allowWithApproval = checked(f.params, "allow_with_approval");
    try {
      await blocks.createEmailDomainBlock(c.env.ctx, moderatorOf(f.me.account), { domain, allowWithApproval });
    } catch (e) {
      const r = refusal(e);
      if (!r) throw e;
      return emailPage(c, f.me, {
        error: r.message,
        status: 422,
        values: { domain, allow_with_approval: allowWithApproval },
      });
    }
    return done(c, EMAIL, "admin.blocks.email_created");
  });

  app.post(`${EMAIL}/:id/delete`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    try {
      const block = await blocks.findEmailDomainBlock(c.env.ctx, c.req.param("id"));
      await blocks.destroyEmailDomainBlock(c.env.ctx, moderatorOf(f.me.account), block);
    } catch (e) {
      if (refusal(e)) return notFoundPage(c);
      throw e;
    }
    return done(c, EMAIL, "admin.blocks.email_removed");
  });

  app.get(CANONICAL, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return canonicalPage(c, me);
  });

  app.post(CANONICAL, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const email = field(f.params, "email", 320);
    const hash = field(f.params, "canonical_email_hash", 100);
    try {
      await blocks.createCanonicalEmailBlock(c.env.ctx, moderatorOf(f.me.account), {
        email,
        canonicalEmailHash: hash,
      });
    } catch (e) {
      const r = refusal(e);
      if (!r) throw e;
      return canonicalPage(c, f.me, {
        error: r.message,
        status: 422,
        values: { email, canonical_email_hash: hash },
      });
    }
    return done(c, CANONICAL, "admin.blocks.canonical_created");
  });

  // A read (as the API's `POST .../test`, which needs only the read scope), posted for its CSRF token.
  app.post(`${CANONICAL}/test`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const tr = t(c);
    const email = field(f.params, "email", 320);
    const matching = await blocks.canonicalEmailBlocksMatching(c.env.ctx, email);
    const result =
      matching.length > 0
        ? html`<p class="test-result" role="status"><span class="badge bad">${tr("admin.blocks.blocked")}</span> ${tr("admin.blocks.test_blocked", { email })} <code>${matching[0].canonicalEmailHash}</code></p>`
        : html`<p class="test-result" role="status"><span class="badge good">${tr("admin.blocks.not_blocked")}</span> ${tr("admin.blocks.test_clear", { email })}</p>`;
    return canonicalPage(c, f.me, { result, values: { test: email } });
  });

  app.post(`${CANONICAL}/:id/delete`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    try {
      const block = await blocks.findCanonicalEmailBlock(c.env.ctx, c.req.param("id"));
      await blocks.destroyCanonicalEmailBlock(c.env.ctx, moderatorOf(f.me.account), block);
    } catch (e) {
      if (refusal(e)) return notFoundPage(c);
      throw e;
    }
    return done(c, CANONICAL, "admin.blocks.canonical_removed");
  });
}
