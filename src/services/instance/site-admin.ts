import type { AppContext } from "../../context.ts";
import { encodeBlurhash } from "../../lib/blurhash.ts";
import { randomToken } from "../../lib/crypto.ts";
import { ApiError } from "../../lib/errors.ts";
import { sharpOf } from "../../lib/sharp.ts";
import { type FeedAccess, LIVE_FEED_SETTING, liveFeedAccess } from "../feeds/live-feed-access.ts";
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from "../media/process-image.ts";
import { logAction, type Moderator } from "../moderation/action-log.ts";
import { DOMAIN_BLOCKS_SETTING, type DomainBlocksVisibility } from "./public-domain-blocks.ts";
import { loadSiteInfo, type RegistrationsMode, SITE_SETTING, type ThumbnailSetting } from "./site-settings.ts";
import {
  getExtendedDescription,
  getTermsOfService,
  publishTermsOfService,
  setExtendedDescription,
  setPrivacyPolicy,
} from "./site-texts.ts";

/**
 * The server settings as the moderation panel edits them (Mastodon's Form::AdminSettings): the
 * same site settings the instance API, the about page and sign-up read. Every change is written
 * to the action log (`update` `Form::AdminSettings`, or `publish` of the terms).
 */

export type { DomainBlocksVisibility, FeedAccess, RegistrationsMode };

/** What the settings form shows. */
export interface ServerSettings {
  title: string;
  shortDescription: string;
  contactUsername: string;
  contactEmail: string;
  registrationsMode: RegistrationsMode;
  requireInviteText: boolean;
  closedRegistrationsMessage: string;
  /** Sign-ups must give a date of birth at least this many years ago; null: not asked. */
  minAge: number | null;
  statusPageUrl: string;
  showDomainBlocks: DomainBlocksVisibility;
  showDomainBlocksRationale: DomainBlocksVisibility;
  localLiveFeedAccess: FeedAccess;
  remoteLiveFeedAccess: FeedAccess;
  thumbnail: (ThumbnailSetting & { description?: string }) | null;
  extendedDescription: string;
  /** The operator's own policy; empty while the default one is served. */
  privacyPolicy: string;
  terms: { effectiveDate: string; content: string } | undefined;
}

export const VISIBILITIES: readonly DomainBlocksVisibility[] = ["disabled", "users", "all"];
export const FEED_ACCESS: readonly FeedAccess[] = ["public", "authenticated", "disabled"];
export const REGISTRATIONS_MODES: readonly RegistrationsMode[] = ["open", "approved", "none"];

const visibilityOf = (v: unknown): DomainBlocksVisibility =>
  VISIBILITIES.includes(v as DomainBlocksVisibility) ? (v as DomainBlocksVisibility) : "disabled";

export async function loadServerSettings(ctx: AppContext): Promise<ServerSettings> {
  const [site, all, feeds, extended, terms] = await Promise.all([
    loadSiteInfo(ctx),
    ctx.repos.settings.all(),
    liveFeedAccess(ctx),
    getExtendedDescription(ctx),
    getTermsOfService(ctx),
  ]);
  const policy = all[SITE_SETTING.privacyPolicy] as { content?: unknown } | undefined;
  return {
    title: site.title,
    shortDescription: site.shortDescription,
    contactUsername: site.contactUsername ?? "",
    contactEmail: site.contactEmail,
    registrationsMode: site.registrationsMode,
    requireInviteText: site.requireInviteText,
    closedRegistrationsMessage: site.closedRegistrationsMessage ?? "",
    minAge: site.minAge,
    statusPageUrl: site.statusPageUrl ?? "",
    showDomainBlocks: visibilityOf(all[DOMAIN_BLOCKS_SETTING.show]),
    showDomainBlocksRationale: visibilityOf(all[DOMAIN_BLOCKS_SETTING.rationale]),
    localLiveFeedAccess: feeds.local,
    remoteLiveFeedAccess: feeds.remote,
    thumbnail: site.thumbnail as ServerSettings["thumbnail"],
    extendedDescription: extended.content,
    privacyPolicy: typeof policy?.content === "string" ? policy.content : "",
    terms: terms ? { effectiveDate: terms.effectiveDate, content: terms.content } : undefined,
  };
}

/** The fields of the panel's general form. */
export type GeneralSettings = Pick<
  ServerSettings,
  | "title"
  | "shortDescription"
  | "contactUsername"
  | "contactEmail"
  | "registrationsMode"
  | "requireInviteText"
  | "closedRegistrationsMessage"
  | "minAge"
  | "statusPageUrl"
  | "showDomainBlocks"
  | "showDomainBlocksRationale"
  | "localLiveFeedAccess"
  | "remoteLiveFeedAccess"
>;

const invalid = (message: string) => new ApiError(422, `Validation failed: ${message}`);

const settingsRecord = (summary: string) => ({
  action: "update",
  targetType: "Form::AdminSettings",
  targetId: null,
  humanIdentifier: null,
  summary,
});

/** Which stored key each general field is kept under. */
const KEYS: Record<keyof GeneralSettings, string> = {
  title: SITE_SETTING.title,
  shortDescription: SITE_SETTING.shortDescription,
  contactUsername: SITE_SETTING.contactUsername,
  contactEmail: SITE_SETTING.contactEmail,
  registrationsMode: SITE_SETTING.registrationsMode,
  requireInviteText: SITE_SETTING.requireInviteText,
  closedRegistrationsMessage: SITE_SETTING.closedRegistrationsMessage,
  minAge: SITE_SETTING.minAge,
  statusPageUrl: SITE_SETTING.statusPageUrl,
  showDomainBlocks: DOMAIN_BLOCKS_SETTING.show,
  showDomainBlocksRationale: DOMAIN_BLOCKS_SETTING.rationale,
  localLiveFeedAccess: LIVE_FEED_SETTING.local,
  remoteLiveFeedAccess: LIVE_FEED_SETTING.remote,
};

/**
 * Saves the general settings (only those that changed) and logs which changed. The contact must
 * be a local account that exists; the e-mail must look like one; the choices are Mastodon's.
 */
export async function updateGeneralSettings(ctx: AppContext, by: Moderator, input: GeneralSettings): Promise<string[]> {
  if (input.title.trim() === "") throw invalid("Title can't be blank");
  if (input.title.length > 255) throw invalid("Title is too long (maximum is 255 characters)");
  if (input.contactEmail !== "" && !/^[^\s@]+@[^\s@]+$/.test(input.contactEmail)) {
    throw invalid("Contact e-mail is invalid");
  }
  const username = input.contactUsername.trim().replace(/^@/, "");
  if (username !== "") {
    const account = await ctx.repos.accounts.getByUsername(username, null);
    if (!account) throw invalid(`Contact account @${username} does not exist here`);
  }
  if (input.minAge !== null && (!Number.isInteger(input.minAge) || input.minAge < 1 || input.minAge > 120)) {
    throw invalid("Minimum age must be a whole number of years from 1 to 120");
  }
  if (input.statusPageUrl !== "" && !/^https?:\/\/[^\s]+$/i.test(input.statusPageUrl)) {
    throw invalid("Status page must be an http(s) address");
  }
  if (!REGISTRATIONS_MODES.includes(input.registrationsMode)) throw invalid("Registrations mode is invalid");
  for (const v of [input.showDomainBlocks, input.showDomainBlocksRationale]) {
    if (!VISIBILITIES.includes(v)) throw invalid("Domain block visibility is invalid");
  }
  for (const v of [input.localLiveFeedAccess, input.remoteLiveFeedAccess]) {
    if (!FEED_ACCESS.includes(v)) throw invalid("Live feed access is invalid");
  }
  const before = await loadServerSettings(ctx);
  const next: GeneralSettings = { ...input, contactUsername: username };
  const changed = (Object.keys(KEYS) as (keyof GeneralSettings)[]).filter((k) => before[k] !== next[k]);
  if (changed.length === 0) return [];
  for (const k of changed) await ctx.repos.settings.set(KEYS[k], next[k]);
  await logAction(ctx, by, settingsRecord(`changed the server settings (${changed.map((k) => KEYS[k]).join(", ")})`));
  return changed;
}

/** Sets the about text, the privacy policy (empty: the default again), logged. */
export async function updateSiteTexts(
  ctx: AppContext,
  by: Moderator,
  input: { extendedDescription: string; privacyPolicy: string },
): Promise<boolean> {
  const before = await loadServerSettings(ctx);
  const changed: string[] = [];
  if (input.extendedDescription !== before.extendedDescription) {
    await setExtendedDescription(ctx, input.extendedDescription);
    changed.push(SITE_SETTING.extendedDescription);
  }
  if (input.privacyPolicy !== before.privacyPolicy) {
    await setPrivacyPolicy(ctx, input.privacyPolicy);
    changed.push(SITE_SETTING.privacyPolicy);
  }
  if (changed.length === 0) return false;
  await logAction(ctx, by, settingsRecord(`changed the server settings (${changed.join(", ")})`));
  return true;
}

/** Publishes a version of the terms of service, effective from a day (today or later, `YYYY-MM-DD`). */
export async function publishTerms(
  ctx: AppContext,
  by: Moderator,
  input: { effectiveDate: string; content: string },
): Promise<void> {
  if (input.content.trim() === "") throw invalid("Text can't be blank");
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.effectiveDate);
  const date = m ? new Date(`${input.effectiveDate}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== input.effectiveDate) {
    throw invalid("Effective date is invalid");
  }
  await publishTermsOfService(ctx, input);
  await logAction(ctx, by, {
    action: "publish",
    targetType: "TermsOfService",
    targetId: null,
    humanIdentifier: input.effectiveDate,
    summary: `published the terms of service effective ${input.effectiveDate}`,
  });
}

/**
 * Stores an uploaded server banner (the instance `thumbnail`): decoded, turned upright, cropped to
 * 1200x630 (the size the about page and Mastodon give it) and re-encoded, which drops all metadata,
 * under a fresh name; the old file goes.
 */
export async function setThumbnail(
  ctx: AppContext,
  by: Moderator,
  data: Uint8Array | undefined,
  description: string,
): Promise<void> {
  const old = (await loadSiteInfo(ctx)).thumbnail as (ThumbnailSetting & { key?: string }) | null;
  let value: Record<string, unknown>;
  if (data && data.byteLength > 0) {
    const image = await processThumbnail(data);
    const key = `site_uploads/thumbnail/${randomToken(12)}.${image.extension}`;
    await ctx.blobs.put(key, image.data, image.contentType);
    const url = ctx.blobs.url(key);
    value = {
      url,
      key,
      blurhash: await blurhashOf(image.data),
      versions: { "@1x": url, "@2x": url },
      description: description || null,
    };
    if (old?.key) await deleteQuietly(ctx, old.key);
  } else if (old) {
    value = { ...old, description: description || null };
  } else {
    return;
  }
  await ctx.repos.settings.set(SITE_SETTING.thumbnail, value);
  await logAction(ctx, by, settingsRecord(`changed the server settings (${SITE_SETTING.thumbnail})`));
}

/** Removes the uploaded banner: the default one is shown again. */
export async function removeThumbnail(ctx: AppContext, by: Moderator): Promise<boolean> {
  const old = (await loadSiteInfo(ctx)).thumbnail as (ThumbnailSetting & { key?: string }) | null;
  if (!old) return false;
  await ctx.repos.settings.set(SITE_SETTING.thumbnail, null);
  if (old.key) await deleteQuietly(ctx, old.key);
  await logAction(ctx, by, settingsRecord(`removed the server thumbnail`));
  return true;
}

async function deleteQuietly(ctx: AppContext, key: string): Promise<void> {
  try {
    await ctx.blobs.delete(key);
  } catch {
    // a stray file is harmless
  }
}

/** The banner's blurhash (what clients show while it loads), from a 32x11 sample. */
async function blurhashOf(image: Uint8Array): Promise<string | null> {
  try {
    const { data, info } = await (await sharpOf(image))
      .resize(32, 11, { fit: "fill" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return encodeBlurhash(new Uint8Array(data), info.width, info.height, 4, 3);
  } catch {
    return null;
  }
}

/** Formats kept as they are; a GIF keeps its first frame, as a PNG. */
const THUMBNAIL_OUTPUT: Record<string, { format: "jpeg" | "png" | "webp"; contentType: string; extension: string }> = {
  jpeg: { format: "jpeg", contentType: "image/jpeg", extension: "jpg" },
  png: { format: "png", contentType: "image/png", extension: "png" },
  webp: { format: "webp", contentType: "image/webp", extension: "webp" },
  gif: { format: "png", contentType: "image/png", extension: "png" },
};

export const THUMBNAIL_SIZE = { width: 1200, height: 630 } as const;

async function processThumbnail(
  input: Uint8Array,
): Promise<{ data: Uint8Array; contentType: string; extension: string }> {
  if (input.byteLength > MAX_IMAGE_BYTES) throw invalid("Thumbnail file size must be less than 16 MB");
  const unreadable = () => invalid("Thumbnail could not be read as an image");
  let format: string | undefined;
  try {
    format = (await (await sharpOf(input, { limitInputPixels: MAX_IMAGE_PIXELS })).metadata()).format;
  } catch {
    throw unreadable();
  }
  const out = format ? THUMBNAIL_OUTPUT[format] : undefined;
  if (!out) throw invalid("Thumbnail content type is invalid (PNG, JPEG, WebP or GIF)");
  try {
    const pipeline = (await sharpOf(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" }))
      .rotate()
      .resize(THUMBNAIL_SIZE.width, THUMBNAIL_SIZE.height, { fit: "cover", position: "centre" });
    const encoded =
      out.format === "jpeg"
        ? pipeline.jpeg({ quality: 90 })
        : out.format === "webp"
          ? pipeline.webp({ quality: 90 })
          : pipeline.png();
    return { data: new Uint8Array(await encoded.toBuffer()), contentType: out.contentType, extension: out.extension };
  } catch {
    throw unreadable();
  }
}
