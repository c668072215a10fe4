import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User, UserSettings } from "../../db/repositories/users.ts";
import { Permission } from "../../lib/roles.ts";
import { isLanguageCode } from "../../lib/text/languages.ts";
import { FieldErrors } from "./field-errors.ts";
import { type CredentialsUpdate, type Privacy, updateCredentials } from "./update-credentials.ts";

export const PRIVACY_VALUES: readonly Privacy[] = ["public", "unlisted", "private", "direct"];
export const QUOTE_POLICIES = ["public", "followers", "nobody"] as const;
export const EXPAND_MEDIA = ["default", "show_all", "hide_all"] as const;
/** At most this many chosen languages (there are fewer than 200 ISO 639-1 codes). */
const CHOSEN_LANGUAGES_MAX = 200;

/** The preferences page's settings (Mastodon's Settings → Preferences); absent keys stay as they are. */
export interface PreferencesUpdate {
  privacy?: string;
  sensitive?: boolean;
  /** "" clears the default posting language. */
  language?: string;
  quotePolicy?: string;
  /** The interface language (`users.locale`). */
  locale?: string;
  /** The languages shown in public timelines and trends; empty: all. */
  chosenLanguages?: string[];
  expandMedia?: string;
  expandSpoilers?: boolean;
  /** The trends review e-mail (staff who manage hashtags and trends only). */
  trendsEmails?: boolean;
}

/** Whether the user may receive the trends review e-mail (their role manages taxonomies). */
export function receivesTrendsMail(ctx: AppContext, user: User): Promise<boolean> {
  return ctx.roles.can(user.roleId, Permission.manageTaxonomies);
}

/**
 * Saves the preferences: the posting defaults through `updateCredentials` (as the API's
 * `source[...]`, which verify_credentials shows), the reading preferences, chosen languages and
 * e-mail choices in the user's settings (as `/api/v1/preferences` shows them), and the locale.
 * `locales` are the interface languages on offer. Every problem is reported at once (a 422 with
 * `details` by field); nothing is changed then.
 */
export async function updatePreferences(
  ctx: AppContext,
  account: Account,
  user: User,
  input: PreferencesUpdate,
  locales: readonly string[],
): Promise<User> {
  const errors = new FieldErrors();
  const oneOf = <T extends string>(field: string, v: string | undefined, list: readonly T[]): T | undefined => {
    if (v === undefined) return undefined;
    if ((list as readonly string[]).includes(v)) return v as T;
    errors.add(field, "ERR_INCLUSION", "is not included in the list");
    return undefined;
  };
  const privacy = oneOf("privacy", input.privacy, PRIVACY_VALUES);
  const quotePolicy = oneOf("quote_policy", input.quotePolicy, QUOTE_POLICIES);
  const expandMedia = oneOf("expand_media", input.expandMedia, EXPAND_MEDIA);
  const locale = oneOf("locale", input.locale, locales);
  if (input.language !== undefined && input.language !== "" && !isLanguageCode(input.language)) {
    errors.add("language", "ERR_INCLUSION", "is not included in the list");
  }
  let chosen: string[] | undefined;
  if (input.chosenLanguages !== undefined) {
    chosen = [...new Set(input.chosenLanguages)];
    if (chosen.length > CHOSEN_LANGUAGES_MAX || !chosen.every(isLanguageCode)) {
      errors.add("chosen_languages", "ERR_INCLUSION", "is not included in the list");
    }
  }
  if (input.trendsEmails !== undefined && !(await receivesTrendsMail(ctx, user))) {
    errors.add("trends_emails", "ERR_INVALID", "is not available to you");
  }
  errors.throwIfAny();

  // The posting defaults, as update_credentials' source[...] (only when one changes: that also
  // sends followers' servers the profile).
  const s = user.settings;
  const source: CredentialsUpdate = {};
  if (privacy !== undefined && privacy !== (s.privacy ?? "public")) source.privacy = privacy;
  if (input.sensitive !== undefined && input.sensitive !== (s.sensitive ?? false)) source.sensitive = input.sensitive;
  if (input.language !== undefined && (input.language || null) !== (s.language ?? null)) {
    source.language = input.language || null;
  }
  if (quotePolicy !== undefined && quotePolicy !== (s.quotePolicy ?? "public")) source.quotePolicy = quotePolicy;
  let current = user;
  if (Object.keys(source).length > 0) current = (await updateCredentials(ctx, account, user, source)).user;

  const settings: UserSettings = { ...current.settings };
  if (expandMedia !== undefined) settings.expandMedia = expandMedia;
  if (input.expandSpoilers !== undefined) settings.expandSpoilers = input.expandSpoilers;
  // No language chosen means every language, as in Mastodon.
  if (chosen !== undefined) settings.chosenLanguages = chosen.length > 0 ? chosen : null;
  if (input.trendsEmails !== undefined) {
    settings.notificationEmails = { ...settings.notificationEmails, trends: input.trendsEmails };
  }
  await ctx.repos.users.update(current.id, {
    settings: JSON.stringify(settings),
    ...(locale !== undefined ? { locale } : {}),
    updated_at: new Date().toISOString(),
  });
  const fresh = await ctx.repos.users.getById(current.id);
  if (!fresh) throw new Error("user vanished during a preferences update");
  return fresh;
}
