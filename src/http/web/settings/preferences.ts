import type { Context, Hono } from "hono";
import { LANGUAGE_CODES } from "../../../lib/text/languages.ts";
import {
  EXPAND_MEDIA,
  type PreferencesUpdate,
  QUOTE_POLICIES,
  receivesTrendsMail,
  updatePreferences,
} from "../../../services/accounts/preferences.ts";
import type { HonoEnv } from "../../types.ts";
import { checked, readForm, requireUser, type SignedIn } from "../guard.ts";
import { t, WEB_LOCALES } from "../i18n/index.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import {
  checkbox,
  csrfField,
  describedBy,
  type FieldProblems,
  fieldError,
  hasProblems,
  list,
  problemSummary,
  problemsOf,
  savedNotice,
  text,
} from "./forms.ts";
import { sendSettingsPage } from "./layout.ts";

const PATH = "/settings/preferences";
/** The posting privacies the form offers (Mastodon's; `direct` stays possible through the API). */
const PRIVACIES = ["public", "unlisted", "private"] as const;
/** Languages offered for timelines and trends (Mastodon shows every language; these are the most used). */
const COMMON_LANGUAGES = [
  "ar",
  "ca",
  "cs",
  "cy",
  "da",
  "de",
  "el",
  "en",
  "eo",
  "es",
  "eu",
  "fa",
  "fi",
  "fr",
  "ga",
  "gl",
  "he",
  "hi",
  "hu",
  "id",
  "it",
  "ja",
  "ko",
  "nl",
  "no",
  "pl",
  "pt",
  "ro",
  "ru",
  "sk",
  "sv",
  "th",
  "tr",
  "uk",
  "vi",
  "zh",
];

interface PreferenceValues {
  privacy: string;
  quotePolicy: string;
  language: string;
  sensitive: boolean;
  locale: string;
  chosenLanguages: string[];
  expandMedia: string;
  expandSpoilers: boolean;
  trendsEmails: boolean;
}

function storedValues(me: SignedIn): PreferenceValues {
  const s = me.user.settings;
  return {
    privacy: s.privacy ?? "public",
    quotePolicy: s.quotePolicy ?? "public",
    language: s.language ?? "",
    sensitive: s.sensitive ?? false,
    locale: me.user.locale,
    chosenLanguages: s.chosenLanguages ?? [],
    expandMedia: s.expandMedia ?? "default",
    expandSpoilers: s.expandSpoilers ?? false,
    trendsEmails: s.notificationEmails?.trends !== false,
  };
}

/** Interface languages: the web's locales, plus the user's own when it is another one. */
const localesFor = (me: SignedIn): string[] => [...new Set([...WEB_LOCALES, me.user.locale])].filter(Boolean);

function languageNamer(locale: string): (code: string) => string {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([locale, "en"], { type: "language", fallback: "code" });
  } catch {
    names = undefined;
  }
  return (code) => names?.of(code) ?? code;
}

function radios(name: string, current: string, options: readonly (readonly [string, string, string?])[]): SafeHtml {
  return html`${options.map(
    ([value, label, hint]) =>
      html`<label class="check" for="${name}_${value}"><input type="radio" id="${name}_${value}" name="${name}" value="${value}"${value === current ? html` checked` : ""}><span>${label}${hint ? html`<span class="hint">${hint}</span>` : ""}</span></label>`,
  )}`;
}

async function preferencesPage(
  c: Context<HonoEnv>,
  me: SignedIn,
  v: PreferenceValues,
  problems?: FieldProblems,
): Promise<Response> {
  const tr = t(c);
  const p = problems ?? {};
  const name = languageNamer(tr.locale);
  const byName = (codes: Iterable<string>) =>
    [...codes].map((code) => ({ code, name: name(code) })).sort((a, b) => a.name.localeCompare(b.name, tr.locale));
  const privacies = PRIVACIES.includes(v.privacy as (typeof PRIVACIES)[number]) ? PRIVACIES : [...PRIVACIES, v.privacy];
  const chosen = new Set(v.chosenLanguages);
  const staff = await receivesTrendsMail(c.env.ctx, me.user);
  const body = html`<h1>${tr("settings.preferences.title")}</h1>
${problemSummary(c, problems)}
<form method="post" action="${PATH}" class="settings-form">
${csrfField(me.csrf)}
<h2>${tr("settings.preferences.posting")}</h2>
<fieldset${describedBy("privacy", p.privacy)}>
<legend>${tr("settings.preferences.privacy")}</legend>
${radios(
  "privacy",
  v.privacy,
  privacies.map(
    (x) =>
      [
        x,
        tr(`settings.privacy.${x}` as "settings.privacy.public"),
        tr(`settings.privacy.${x}_hint` as "settings.privacy.public_hint"),
      ] as const,
  ),
)}
${fieldError("privacy", p.privacy)}
</fieldset>
<fieldset${describedBy("quote_policy", p.quote_policy)}>
<legend>${tr("settings.preferences.quote_policy")}</legend>
${radios(
  "quote_policy",
  v.quotePolicy,
  QUOTE_POLICIES.map((x) => [x, tr(`settings.quote_policy.${x}` as "settings.quote_policy.public")] as const),
)}
${fieldError("quote_policy", p.quote_policy)}
</fieldset>
<label for="language">${tr("settings.preferences.language")}</label>
<select id="language" name="language"${describedBy("language", p.language, true)}>
<option value=""${v.language === "" ? html` selected` : ""}>${tr("settings.preferences.language_none")}</option>
${byName(LANGUAGE_CODES).map((l) => html`<option value="${l.code}"${l.code === v.language ? html` selected` : ""}>${l.name}</option>`)}
</select>
<p class="hint" id="language-hint">${tr("settings.preferences.language_hint")}</p>
${fieldError("language", p.language)}
${checkbox({ id: "sensitive", name: "sensitive", label: tr("settings.preferences.sensitive"), hint: tr("settings.preferences.sensitive_hint"), checked: v.sensitive })}

<h2>${tr("settings.preferences.interface")}</h2>
<label for="locale">${tr("settings.preferences.locale")}</label>
<select id="locale" name="locale"${describedBy("locale", p.locale)}>
${localesFor(me).map((l) => html`<option value="${l}"${l === v.locale ? html` selected` : ""}>${name(l)}</option>`)}
</select>
${fieldError("locale", p.locale)}

<h2>${tr("settings.preferences.reading")}</h2>
<fieldset${describedBy("expand_media", p.expand_media)}>
<legend>${tr("settings.preferences.expand_media")}</legend>
${radios(
  "expand_media",
  v.expandMedia,
  EXPAND_MEDIA.map((x) => [x, tr(`settings.expand_media.${x}` as "settings.expand_media.default")] as const),
)}
${fieldError("expand_media", p.expand_media)}
</fieldset>
${checkbox({ id: "expand_spoilers", name: "expand_spoilers", label: tr("settings.preferences.expand_spoilers"), checked: v.expandSpoilers })}

<fieldset${describedBy("chosen_languages", p.chosen_languages, true)}>
<legend>${tr("settings.preferences.chosen_languages")}</legend>
<p class="hint" id="chosen_languages-hint">${tr("settings.preferences.chosen_languages_hint")}</p>
${fieldError("chosen_languages", p.chosen_languages)}
<div class="checkbox-columns">
${byName(new Set([...COMMON_LANGUAGES, ...chosen])).map(
  (l) =>
    html`<label class="check" for="chosen_${l.code}"><input type="checkbox" id="chosen_${l.code}" name="chosen_languages[]" value="${l.code}"${chosen.has(l.code) ? html` checked` : ""}><span>${l.name}</span></label>`,
)}
</div>
</fieldset>
${
  staff
    ? html`<h2>${tr("settings.preferences.emails")}</h2>
${checkbox({ id: "trends_emails", name: "trends_emails", label: tr("settings.preferences.trends_emails"), checked: v.trendsEmails })}`
    : ""
}
<button type="submit">${tr("common.save")}</button>
</form>`;
  return sendSettingsPage(c, {
    title: tr("settings.preferences.title"),
    body,
    current: PATH,
    notice: problems ? undefined : savedNotice(c),
    status: hasProblems(problems) ? 422 : 200,
  });
}

async function savePreferences(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const params = await readForm(c, me.session);
  if (params instanceof Response) return params;
  const ctx = c.env.ctx;
  const staff = await receivesTrendsMail(ctx, me.user);
  const v: PreferenceValues = {
    privacy: text(params.privacy, 50),
    quotePolicy: text(params.quote_policy, 50),
    language: text(params.language, 50),
    sensitive: checked(params, "sensitive"),
    locale: text(params.locale, 50),
    chosenLanguages: list(params.chosen_languages),
    expandMedia: text(params.expand_media, 50),
    expandSpoilers: checked(params, "expand_spoilers"),
    trendsEmails: checked(params, "trends_emails"),
  };
  const input: PreferencesUpdate = {
    privacy: v.privacy,
    quotePolicy: v.quotePolicy,
    language: v.language,
    sensitive: v.sensitive,
    locale: v.locale,
    chosenLanguages: v.chosenLanguages,
    expandMedia: v.expandMedia,
    expandSpoilers: v.expandSpoilers,
    trendsEmails: staff ? v.trendsEmails : undefined,
  };
  try {
    await updatePreferences(ctx, me.account, me.user, input, localesFor(me));
  } catch (e) {
    const found = problemsOf(e);
    if (!found) throw e;
    return preferencesPage(c, me, v, found);
  }
  return c.redirect(`${PATH}?saved=1`, 303);
}

export function preferencesRoutes(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return preferencesPage(c, me, storedValues(me));
  });
  app.post(PATH, savePreferences);
}
