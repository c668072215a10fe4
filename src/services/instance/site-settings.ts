import type { RegistrationsMode } from "../../config/index.ts";
import type { AppContext } from "../../context.ts";

export type { RegistrationsMode };

/**
 * Site settings the instance endpoints read (Mastodon's setting names). The operator's values,
 * stored in `site_settings` by the admin API, win over the environment's defaults.
 */
export const SITE_SETTING = {
  title: "site_title",
  shortDescription: "site_short_description",
  contactEmail: "site_contact_email",
  /** Username of the local account shown as the contact (defaults to the Owner). */
  contactUsername: "site_contact_username",
  closedRegistrationsMessage: "closed_registrations_message",
  requireInviteText: "require_invite_text",
  minAge: "min_age",
  statusPageUrl: "status_page_url",
  /** false hides `/api/v1/instance/peers` (404), as in Mastodon. */
  peersApiEnabled: "peers_api_enabled",
  /** false hides `/api/v1/instance/activity` (404). */
  activityApiEnabled: "activity_api_enabled",
  thumbnail: "thumbnail",
  extendedDescription: "site_extended_description",
  privacyPolicy: "site_terms",
  termsOfService: "terms_of_service",
  /** `open`, `approved` or `none`: set in the moderation panel, else REGISTRATIONS_MODE. */
  registrationsMode: "registrations_mode",
} as const;

/** A server banner the operator uploaded (stored by the admin API as URLs). */
export interface ThumbnailSetting {
  url: string;
  blurhash?: string | null;
  versions?: { "@1x"?: string; "@2x"?: string };
}

/** What the instance documents need from settings and configuration, resolved. */
export interface SiteInfo {
  title: string;
  shortDescription: string;
  contactEmail: string;
  contactUsername: string | null;
  closedRegistrationsMessage: string | null;
  requireInviteText: boolean;
  minAge: number | null;
  statusPageUrl: string | null;
  thumbnail: ThumbnailSetting | null;
  /** How sign-ups work now: the operator's setting, else REGISTRATIONS_MODE; `none` on a single-user server. */
  registrationsMode: RegistrationsMode;
}

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

function thumbnailOf(v: unknown): ThumbnailSetting | null {
  const t = v as Partial<ThumbnailSetting> | null | undefined;
  return t && typeof t.url === "string" && t.url !== "" ? (t as ThumbnailSetting) : null;
}

const MODES: readonly RegistrationsMode[] = ["open", "approved", "none"];
const modeOf = (v: unknown): RegistrationsMode | undefined =>
  MODES.includes(v as RegistrationsMode) ? (v as RegistrationsMode) : undefined;

/** Reads every site setting in one query and fills the gaps from the configuration. */
export async function loadSiteInfo(ctx: AppContext): Promise<SiteInfo> {
  const s = await ctx.repos.settings.all();
  const { config } = ctx;
  const minAge = Number(s[SITE_SETTING.minAge]);
  return {
    title: text(s[SITE_SETTING.title]) ?? config.siteTitle,
    shortDescription: text(s[SITE_SETTING.shortDescription]) ?? config.siteDescription,
    contactEmail: text(s[SITE_SETTING.contactEmail]) ?? config.siteContactEmail,
    contactUsername: text(s[SITE_SETTING.contactUsername])?.trim().replace(/^@/, "") ?? null,
    closedRegistrationsMessage: text(s[SITE_SETTING.closedRegistrationsMessage]),
    requireInviteText: s[SITE_SETTING.requireInviteText] === true,
    minAge: Number.isInteger(minAge) && minAge > 0 ? minAge : null,
    statusPageUrl: text(s[SITE_SETTING.statusPageUrl]),
    thumbnail: thumbnailOf(s[SITE_SETTING.thumbnail]),
    registrationsMode: config.singleUserMode
      ? "none"
      : (modeOf(s[SITE_SETTING.registrationsMode]) ?? config.registrationsMode),
  };
}

/** Whether an optional public endpoint is switched on (default on). */
export async function isEndpointEnabled(
  ctx: AppContext,
  key: typeof SITE_SETTING.peersApiEnabled | typeof SITE_SETTING.activityApiEnabled,
): Promise<boolean> {
  return (await ctx.repos.settings.get<unknown>(key)) !== false;
}
