import { isLanguageCode } from "../../../../lib/text/languages.ts";
import { FieldErrors } from "../../../../services/accounts/field-errors.ts";
import type { CredentialsUpdate, Privacy } from "../../../../services/accounts/update-credentials.ts";
import { MAX_IMAGE_BYTES } from "../../../../services/media/process-image.ts";
import { asHash, asHashList } from "../../../params.ts";
import { boolish } from "../../../validate.ts";

type Params = Record<string, unknown>;

/** A scalar text parameter; anything else (arrays, objects) counts as not given, as Rails' `permit` does. */
export function scalarText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

export interface RegistrationParams {
  username?: string;
  email?: string;
  password?: string;
  agreement: boolean;
  locale?: string;
  reason?: string;
  /** Mastodon 4.4: required when the server has a minimum age. */
  dateOfBirth?: string;
}

/** `POST /api/v1/accounts` parameters. Their rules are checked by the registration service. */
export function parseRegistration(p: Params): RegistrationParams {
  const agreement = boolish.safeParse(p.agreement);
  const locale = scalarText(p.locale);
  return {
    username: scalarText(p.username),
    email: scalarText(p.email),
    password: scalarText(p.password),
    agreement: agreement.success && agreement.data,
    locale: locale === "" ? undefined : locale,
    reason: scalarText(p.reason),
    dateOfBirth: scalarText(p.date_of_birth),
  };
}

const PRIVACY: readonly Privacy[] = ["public", "unlisted", "private", "direct"];
const DATA_URI = /^data:image\/[a-z0-9.+-]+;base64,([a-z0-9+/=\s]*)$/i;

/** Reads an uploaded image: a multipart file, or a base64 `data:` URI (which Mastodon also takes). */
async function imageBytes(name: string, v: unknown, errors: FieldErrors): Promise<Uint8Array | undefined> {
  if (v === undefined || v === null || v === "") return undefined;
  if (v instanceof File) {
    if (v.size > MAX_IMAGE_BYTES) {
      errors.add(name, "ERR_TOO_LARGE", "file size must be less than 16 MB");
      return undefined;
    }
    return new Uint8Array(await v.arrayBuffer());
  }
  const m = typeof v === "string" ? DATA_URI.exec(v) : null;
  if (!m) {
    errors.add(name, "ERR_INVALID", "must be an image file");
    return undefined;
  }
  const data = Buffer.from(m[1], "base64");
  if (data.byteLength > MAX_IMAGE_BYTES) {
    errors.add(name, "ERR_TOO_LARGE", "file size must be less than 16 MB");
    return undefined;
  }
  return new Uint8Array(data);
}

/**
 * `update_credentials` parameters, checked for types: booleans as Rails reads them, texts as
 * strings, `fields_attributes` as an array or a numbered object, `source[...]` settings, images.
 * Wrong types are a 422 naming each field, except that a scalar where a hash or list is expected is
 * ignored (Rails' `permit` drops it); the profile limits are the service's business.
 */
export async function parseCredentialsUpdate(p: Params): Promise<CredentialsUpdate> {
  const errors = new FieldErrors();
  const out: CredentialsUpdate = {};

  const text = (key: string): string | undefined => {
    const v = p[key];
    if (v === undefined) return undefined;
    if (v === null) return "";
    const s = scalarText(v);
    if (s === undefined) errors.add(key, "ERR_INVALID", "must be text");
    return s;
  };
  const bool = (key: string, v: unknown = p[key]): boolean | undefined => {
    if (v === undefined || v === null) return undefined;
    const r = boolish.safeParse(v);
    if (!r.success) errors.add(key, "ERR_INVALID", "must be true or false");
    return r.success ? r.data : undefined;
  };

  out.displayName = text("display_name");
  out.note = text("note");
  out.locked = bool("locked");
  out.bot = bool("bot");
  out.discoverable = bool("discoverable");
  out.indexable = bool("indexable");
  out.hideCollections = bool("hide_collections");

  // A list of texts; anything else is dropped, as Rails' `permit(attribution_domains: [])` does.
  if (Array.isArray(p.attribution_domains)) {
    out.attributionDomains = p.attribution_domains.map((d) => scalarText(d) ?? "");
  }

  // A scalar here (masto.js sends `fields_attributes=undefined` for an unset list) leaves the
  // fields as they are, and entries that are not name/value hashes are dropped, as Rails' `permit` does.
  const fields = asHashList(p.fields_attributes);
  if (fields !== undefined) {
    out.fields = fields.map((f) => ({ name: scalarText(f.name) ?? "", value: scalarText(f.value) ?? "" }));
  }

  const source = asHash(p.source);
  if (source) {
    if (source.privacy !== undefined && source.privacy !== null) {
      if (PRIVACY.includes(source.privacy as Privacy)) out.privacy = source.privacy as Privacy;
      else errors.add("default_privacy", "ERR_INCLUSION", "is not included in the list");
    }
    out.sensitive = bool("default_sensitive", source.sensitive);
    if (source.language !== undefined) {
      const lang = source.language === null ? "" : scalarText(source.language);
      if (lang === "") out.language = null;
      else if (lang !== undefined && isLanguageCode(lang)) out.language = lang;
      else errors.add("default_language", "ERR_INCLUSION", "is not included in the list");
    }
    if (source.quote_policy !== undefined && source.quote_policy !== null) {
      const policy = scalarText(source.quote_policy);
      if (policy === "public" || policy === "followers" || policy === "nobody") out.quotePolicy = policy;
      else errors.add("setting_default_quote_policy", "ERR_INCLUSION", "is not included in the list");
    }
  }

  out.avatar = await imageBytes("avatar", p.avatar, errors);
  out.header = await imageBytes("header", p.header, errors);
  errors.throwIfAny();
  return out;
}
