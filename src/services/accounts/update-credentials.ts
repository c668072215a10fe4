import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User, UserSettings } from "../../db/repositories/users.ts";
import { enqueueDelivery } from "../../federation/deliveries.ts";
import { normalizeDomain } from "../../lib/domains.ts";
import { codePointLength, countableLength } from "../../lib/text/length.ts";
import { enqueueAuthorizeAll } from "../follows/follow.ts";
import {
  ImageRejected,
  type ProcessedImage,
  type ProfileImageKind,
  processProfileImage,
} from "../media/process-image.ts";
import { FieldErrors } from "./field-errors.ts";
import { deleteBlobQuietly, storeProfileImage } from "./profile-images.ts";
import { type ProfileFieldSource, renderProfileText } from "./profile-text.ts";

export const DISPLAY_NAME_MAX = 30;
export const NOTE_MAX = 500;
export const FIELDS_MAX = 4;
export const FIELD_TEXT_MAX = 255;
export const ATTRIBUTION_DOMAINS_MAX = 10;

export type Privacy = "public" | "unlisted" | "private" | "direct";

/** A checked-for-types `update_credentials` request; absent keys leave things as they are. */
export interface CredentialsUpdate {
  displayName?: string;
  note?: string;
  fields?: ProfileFieldSource[];
  locked?: boolean;
  bot?: boolean;
  discoverable?: boolean;
  indexable?: boolean;
  hideCollections?: boolean;
  privacy?: Privacy;
  sensitive?: boolean;
  /** null clears the default posting language. */
  language?: string | null;
  /** The default quote policy of new posts. */
  quotePolicy?: "public" | "followers" | "nobody";
  /** Sites that may credit this account as an article's author (Mastodon 4.4). */
  attributionDomains?: string[];
  avatar?: Uint8Array;
  header?: Uint8Array;
}

/** Mastodon's limits on a local profile; every problem is reported at once. */
function checkLimits(input: CredentialsUpdate, errors: FieldErrors): ProfileFieldSource[] | undefined {
  if (input.displayName !== undefined && codePointLength(input.displayName) > DISPLAY_NAME_MAX) {
    errors.add("display_name", "ERR_TOO_LONG", `is too long (maximum is ${DISPLAY_NAME_MAX} characters)`);
  }
  if (input.note !== undefined && countableLength(input.note) > NOTE_MAX) {
    errors.add("note", "ERR_TOO_LONG", `is too long (maximum is ${NOTE_MAX} characters)`);
  }
  if (input.fields === undefined) return undefined;
  // Rows left empty (as profile forms send them) are dropped, as in Mastodon.
  const fields = input.fields
    .map((f) => ({ name: f.name.trim(), value: f.value.trim() }))
    .filter((f) => f.name !== "" || f.value !== "");
  if (fields.length > FIELDS_MAX) {
    errors.add("fields", "ERR_TOO_LONG", `is too long (maximum is ${FIELDS_MAX} fields)`);
  }
  if (fields.some((f) => f.name === "")) errors.add("fields", "ERR_BLANK", "name can't be blank when a value is given");
  for (const part of ["name", "value"] as const) {
    if (fields.some((f) => codePointLength(f[part]) > FIELD_TEXT_MAX)) {
      errors.add("fields", "ERR_TOO_LONG", `${part} is too long (maximum is ${FIELD_TEXT_MAX} characters)`);
    }
  }
  return fields;
}

async function processImages(
  input: CredentialsUpdate,
  errors: FieldErrors,
): Promise<Partial<Record<ProfileImageKind, ProcessedImage>>> {
  const out: Partial<Record<ProfileImageKind, ProcessedImage>> = {};
  for (const kind of ["avatar", "header"] as const) {
    const data = input[kind];
    if (data === undefined) continue;
    try {
      out[kind] = await processProfileImage(data, kind);
    } catch (e) {
      if (!(e instanceof ImageRejected)) throw e;
      errors.add(kind, e.reason === "too_large" ? "ERR_TOO_LARGE" : "ERR_INVALID", e.message);
    }
  }
  return out;
}

/**
 * The attribution domains as stored: trimmed, lower-cased (punycode), without a leading `*.`
 * (a domain covers its subdomains anyway), blanks and repeats dropped; at most 10, each a host
 * name. `undefined` when the request leaves them as they are.
 */
function checkAttributionDomains(list: string[] | undefined, errors: FieldErrors): string[] | undefined {
  if (list === undefined) return undefined;
  const out: string[] = [];
  for (const raw of list) {
    const text = raw.trim().replace(/^\*\./, "");
    if (text === "") continue;
    const domain = normalizeDomain(text);
    if (domain === null) errors.add("attribution_domains", "ERR_INVALID", `${raw.trim()} is not a valid domain`);
    else if (!out.includes(domain)) out.push(domain);
  }
  if (out.length > ATTRIBUTION_DOMAINS_MAX) {
    errors.add("attribution_domains", "ERR_TOO_LONG", `is too long (maximum is ${ATTRIBUTION_DOMAINS_MAX} domains)`);
  }
  return out;
}

/**
 * `PATCH /api/v1/accounts/update_credentials`: checks everything first (limits, images), then
 * stores the images and updates the account and the user's posting defaults together. A bad
 * request changes nothing; replaced images are deleted afterwards.
 */
export async function updateCredentials(
  ctx: AppContext,
  account: Account,
  user: User,
  input: CredentialsUpdate,
): Promise<{ account: Account; user: User }> {
  const errors = new FieldErrors();
  const fields = checkLimits(input, errors);
  const attributionDomains = checkAttributionDomains(input.attributionDomains, errors);
  errors.throwIfAny();
  const images = await processImages(input, errors);
  errors.throwIfAny();

  const rendered = await renderProfileText(ctx, { note: input.note, fields }, account.fields);
  const now = new Date().toISOString();
  const patch: Parameters<typeof ctx.repos.accounts.update>[1] = { updated_at: now };
  if (input.displayName !== undefined) patch.display_name = input.displayName;
  if (input.note !== undefined) {
    patch.note_source = input.note;
    patch.note = rendered.note ?? "";
  }
  if (fields !== undefined) {
    patch.fields_source = JSON.stringify(fields);
    patch.fields = JSON.stringify(rendered.fields ?? []);
  }
  if (input.locked !== undefined) patch.locked = input.locked;
  if (input.bot !== undefined) patch.actor_type = input.bot ? "Service" : "Person";
  if (input.discoverable !== undefined) patch.discoverable = input.discoverable;
  if (input.indexable !== undefined) patch.indexable = input.indexable;
  if (input.hideCollections !== undefined) patch.hide_collections = input.hideCollections;

  const settings: UserSettings = { ...user.settings };
  if (input.privacy !== undefined) settings.privacy = input.privacy;
  if (input.sensitive !== undefined) settings.sensitive = input.sensitive;
  if (input.language !== undefined) settings.language = input.language;
  if (input.quotePolicy !== undefined) settings.quotePolicy = input.quotePolicy;
  if (attributionDomains !== undefined) settings.attributionDomains = attributionDomains;
  const settingsChanged =
    input.privacy !== undefined ||
    input.sensitive !== undefined ||
    input.language !== undefined ||
    input.quotePolicy !== undefined ||
    attributionDomains !== undefined;

  const stored: string[] = [];
  const replaced: (string | null)[] = [];
  try {
    if (images.avatar) {
      const key = await storeProfileImage(ctx, account.id, "avatar", images.avatar);
      stored.push(key);
      replaced.push(account.avatarPath);
      Object.assign(patch, {
        avatar_path: key,
        avatar_content_type: images.avatar.contentType,
        avatar_remote_url: null,
      });
    }
    if (images.header) {
      const key = await storeProfileImage(ctx, account.id, "header", images.header);
      stored.push(key);
      replaced.push(account.headerPath);
      Object.assign(patch, {
        header_path: key,
        header_content_type: images.header.contentType,
        header_remote_url: null,
      });
    }
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.accounts.update(account.id, patch, trx);
      if (settingsChanged) {
        await ctx.repos.users.update(user.id, { settings: JSON.stringify(settings), updated_at: now }, trx);
      }
    });
  } catch (e) {
    for (const key of stored) await deleteBlobQuietly(ctx, key);
    throw e;
  }
  for (const key of replaced) await deleteBlobQuietly(ctx, key);
  // Unlocking accepts the pending follow requests (Mastodon's UpdateAccountService).
  if (account.locked && input.locked === false) await enqueueAuthorizeAll(ctx, account.id);
  // Remote followers get the new profile (an Update of the actor).
  await enqueueDelivery(ctx, { type: "actor.update", accountId: account.id });

  const [fresh, freshUser] = await Promise.all([
    ctx.repos.accounts.getById(account.id),
    ctx.repos.users.getById(user.id),
  ]);
  if (!fresh || !freshUser) throw new Error("account vanished during a profile update");
  return { account: fresh, user: freshUser };
}
