import type { Context, Hono } from "hono";
import {
  type DomainBlocksVisibility,
  FEED_ACCESS,
  type FeedAccess,
  type GeneralSettings,
  loadServerSettings,
  publishTerms,
  REGISTRATIONS_MODES,
  type RegistrationsMode,
  removeThumbnail,
  type ServerSettings,
  setThumbnail,
  updateGeneralSettings,
  updateSiteTexts,
  VISIBILITIES,
} from "../../../../services/instance/site-admin.ts";
import type { HonoEnv } from "../../../types.ts";
import { checked } from "../../guard.ts";
import { t } from "../../i18n/index.ts";
import { html } from "../../pages/html.ts";
import { checkbox, csrfField } from "../../settings/forms.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { actingAs, done, fileOf, refusal, select, textField } from "./shared.ts";

const PATH = "/admin/settings";

async function settingsPage(
  c: Context<HonoEnv>,
  me: Staff,
  s: ServerSettings,
  error?: string,
  status?: number,
): Promise<Response> {
  const tr = t(c);
  const csrf = csrfField(me.csrf);
  const modes = REGISTRATIONS_MODES.map((m) => [m, tr(`admin.settings.mode.${m}`)] as const);
  const visibilities = VISIBILITIES.map((v) => [v, tr(`admin.settings.visibility.${v}`)] as const);
  const access = FEED_ACCESS.map((v) => [v, tr(`admin.settings.access.${v}`)] as const);
  const today = new Date().toISOString().slice(0, 10);
  const body = html`<h1>${tr("admin.settings.title")}</h1>
<form method="post" action="${PATH}" class="admin-section">
${csrf}
<h2>${tr("admin.settings.general")}</h2>
<label for="title">${tr("admin.settings.site_title")}</label>
<input type="text" id="title" name="site_title" value="${s.title}" required maxlength="255">
<label for="short_description">${tr("admin.settings.short_description")}</label>
<textarea id="short_description" name="site_short_description" rows="3">${s.shortDescription}</textarea>
<label for="contact_username">${tr("admin.settings.contact_username")}</label>
<input type="text" id="contact_username" name="site_contact_username" value="${s.contactUsername}" aria-describedby="contact_username-hint">
<p class="hint" id="contact_username-hint">${tr("admin.settings.contact_username_hint")}</p>
<label for="contact_email">${tr("admin.settings.contact_email")}</label>
<input type="email" id="contact_email" name="site_contact_email" value="${s.contactEmail}">
<label for="status_page_url">${tr("admin.settings.status_page_url")}</label>
<input type="url" id="status_page_url" name="status_page_url" value="${s.statusPageUrl}">
<h2>${tr("admin.settings.registrations")}</h2>
<label for="registrations_mode">${tr("admin.settings.registrations_mode")}</label>
${select("registrations_mode", "registrations_mode", s.registrationsMode, modes)}
${checkbox({ id: "require_invite_text", name: "require_invite_text", label: tr("admin.settings.require_reason"), checked: s.requireInviteText, hint: tr("admin.settings.require_reason_hint") })}
<label for="closed_message">${tr("admin.settings.closed_message")}</label>
<textarea id="closed_message" name="closed_registrations_message" rows="3">${s.closedRegistrationsMessage}</textarea>
<label for="min_age">${tr("admin.settings.min_age")}</label>
<input type="number" id="min_age" name="min_age" value="${s.minAge ?? ""}" min="1" max="120" aria-describedby="min_age-hint">
<p class="hint" id="min_age-hint">${tr("admin.settings.min_age_hint")}</p>
<h2>${tr("admin.settings.discovery")}</h2>
<label for="show_domain_blocks">${tr("admin.settings.show_domain_blocks")}</label>
${select("show_domain_blocks", "show_domain_blocks", s.showDomainBlocks, visibilities)}
<label for="show_domain_blocks_rationale">${tr("admin.settings.show_domain_blocks_rationale")}</label>
${select("show_domain_blocks_rationale", "show_domain_blocks_rationale", s.showDomainBlocksRationale, visibilities)}
<label for="local_live_feed_access">${tr("admin.settings.local_live_feed_access")}</label>
${select("local_live_feed_access", "local_live_feed_access", s.localLiveFeedAccess, access)}
<label for="remote_live_feed_access">${tr("admin.settings.remote_live_feed_access")}</label>
${select("remote_live_feed_access", "remote_live_feed_access", s.remoteLiveFeedAccess, access)}
<p><button type="submit">${tr("admin.save")}</button></p>
</form>

<section class="admin-section" aria-labelledby="thumbnail-heading">
<h2 id="thumbnail-heading">${tr("admin.settings.thumbnail")}</h2>
${
  s.thumbnail
    ? html`<p><img class="admin-thumbnail" src="${s.thumbnail.url}" alt="${s.thumbnail.description ?? tr("admin.settings.thumbnail_current")}"></p>`
    : html`<p>${tr("admin.settings.thumbnail_default")}</p>`
}
<form method="post" action="${PATH}/thumbnail" enctype="multipart/form-data">
${csrf}
<label for="thumbnail">${tr("admin.settings.thumbnail_file")}</label>
<input type="file" id="thumbnail" name="thumbnail" accept="image/png,image/jpeg,image/webp,image/gif" aria-describedby="thumbnail-hint">
<p class="hint" id="thumbnail-hint">${tr("admin.settings.thumbnail_hint")}</p>
<label for="thumbnail_description">${tr("admin.settings.thumbnail_description")}</label>
<input type="text" id="thumbnail_description" name="thumbnail_description" value="${s.thumbnail?.description ?? ""}" maxlength="1500">
<p><button type="submit">${tr("admin.settings.thumbnail_save")}</button></p>
</form>
${
  s.thumbnail
    ? html`<form method="post" action="${PATH}/thumbnail/delete">${csrf}<button type="submit" class="danger">${tr("admin.settings.thumbnail_remove")}</button></form>`
    : ""
}
</section>

<form method="post" action="${PATH}/texts" class="admin-section">
${csrf}
<h2>${tr("admin.settings.texts")}</h2>
<label for="extended_description">${tr("admin.settings.extended_description")}</label>
<textarea id="extended_description" name="site_extended_description" rows="8" aria-describedby="texts-hint">${s.extendedDescription}</textarea>
<label for="privacy_policy">${tr("admin.settings.privacy_policy")}</label>
<textarea id="privacy_policy" name="site_terms" rows="8" aria-describedby="texts-hint">${s.privacyPolicy}</textarea>
<p class="hint" id="texts-hint">${tr("admin.settings.texts_hint")}</p>
<p><button type="submit">${tr("admin.save")}</button></p>
</form>

<form method="post" action="${PATH}/terms" class="admin-section">
${csrf}
<h2>${tr("admin.settings.terms")}</h2>
<p>${
    s.terms ? tr("admin.settings.terms_current", { date: s.terms.effectiveDate }) : tr("admin.settings.terms_none")
  }</p>
<label for="terms_date">${tr("admin.settings.terms_date")}</label>
<input type="date" id="terms_date" name="effective_date" value="${today}" min="${today}" required>
<label for="terms_text">${tr("admin.settings.terms_text")}</label>
<textarea id="terms_text" name="text" rows="10" required>${s.terms?.content ?? ""}</textarea>
<p><button type="submit">${tr("admin.settings.terms_publish")}</button></p>
</form>`;
  return sendAdminPage(c, me, {
    title: tr("admin.settings.title"),
    body,
    current: PATH,
    notice: noticeFrom(c),
    error,
    status,
  });
}

const oneOf = <T extends string>(list: readonly T[], v: string, fallback: T): T =>
  list.includes(v as T) ? (v as T) : fallback;

/** An age in whole years; empty: not asked; anything else reaches the service's check as NaN. */
const ageOf = (v: string): number | null => (v === "" ? null : /^\d{1,3}$/.test(v) ? Number(v) : Number.NaN);

/** `/admin/settings`: the server settings (Manage Settings). */
export function settingsPages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, Permission.manageSettings);
    if (me instanceof Response) return me;
    return settingsPage(c, me, await loadServerSettings(c.env.ctx));
  });

  app.post(PATH, async (c) => {
    const form = await staffForm(c, Permission.manageSettings);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const ctx = c.env.ctx;
    const input: GeneralSettings = {
      title: textField(params, "site_title", 255, true),
      shortDescription: textField(params, "site_short_description", 10_000, true),
      contactUsername: textField(params, "site_contact_username", 100, true),
      contactEmail: textField(params, "site_contact_email", 320, true),
      registrationsMode: oneOf<RegistrationsMode>(REGISTRATIONS_MODES, textField(params, "registrations_mode"), "none"),
      requireInviteText: checked(params, "require_invite_text"),
      closedRegistrationsMessage: textField(params, "closed_registrations_message", 10_000, true),
      minAge: ageOf(textField(params, "min_age", 10, true)),
      statusPageUrl: textField(params, "status_page_url", 2000, true),
      showDomainBlocks: oneOf<DomainBlocksVisibility>(
        VISIBILITIES,
        textField(params, "show_domain_blocks"),
        "disabled",
      ),
      showDomainBlocksRationale: oneOf<DomainBlocksVisibility>(
        VISIBILITIES,
        textField(params, "show_domain_blocks_rationale"),
        "disabled",
      ),
      localLiveFeedAccess: oneOf<FeedAccess>(FEED_ACCESS, textField(params, "local_live_feed_access"), "public"),
      remoteLiveFeedAccess: oneOf<FeedAccess>(FEED_ACCESS, textField(params, "remote_live_feed_access"), "public"),
    };
    try {
      await updateGeneralSettings(ctx, actingAs(me), input);
    } catch (e) {
      const s = { ...(await loadServerSettings(ctx)), ...input };
      return settingsPage(c, me, s, refusal(e), 422);
    }
    return done(c, PATH, "admin.settings.saved");
  });

  app.post(`${PATH}/thumbnail`, async (c) => {
    const form = await staffForm(c, Permission.manageSettings);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const ctx = c.env.ctx;
    try {
      await setThumbnail(
        ctx,
        actingAs(me),
        await fileOf(params, "thumbnail"),
        textField(params, "thumbnail_description", 1500, true),
      );
    } catch (e) {
      return settingsPage(c, me, await loadServerSettings(ctx), refusal(e), 422);
    }
    return done(c, PATH, "admin.settings.saved");
  });

  app.post(`${PATH}/thumbnail/delete`, async (c) => {
    const form = await staffForm(c, Permission.manageSettings);
    if (form instanceof Response) return form;
    await removeThumbnail(c.env.ctx, actingAs(form.me));
    return done(c, PATH, "admin.settings.thumbnail_removed");
  });

  app.post(`${PATH}/texts`, async (c) => {
    const form = await staffForm(c, Permission.manageSettings);
    if (form instanceof Response) return form;
    const { me, params } = form;
    await updateSiteTexts(c.env.ctx, actingAs(me), {
      extendedDescription: textField(params, "site_extended_description", 100_000, true),
      privacyPolicy: textField(params, "site_terms", 100_000, true),
    });
    return done(c, PATH, "admin.settings.saved");
  });

  app.post(`${PATH}/terms`, async (c) => {
    const form = await staffForm(c, Permission.manageSettings);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const ctx = c.env.ctx;
    try {
      await publishTerms(ctx, actingAs(me), {
        effectiveDate: textField(params, "effective_date", 20, true),
        content: textField(params, "text", 100_000, true),
      });
    } catch (e) {
      return settingsPage(c, me, await loadServerSettings(ctx), refusal(e), 422);
    }
    return done(c, PATH, "admin.settings.terms_published");
  });
}
