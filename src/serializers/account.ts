import { midnight } from "../lib/time.ts";
import { defaultPrivacy } from "../policies/accounts.ts";
import { type CustomEmojiView, serializeCustomEmoji } from "./custom-emoji.ts";

/** A profile field as shown: rendered HTML, and when a link in it was verified. */
export interface AccountFieldView {
  name: string;
  value: string;
  verified_at: string | null;
}

/** What the Account entities are made of (an account row has these and more). */
export interface AccountData {
  id: string;
  username: string;
  /** null for this server's accounts. */
  domain: string | null;
  displayName: string;
  note: string;
  noteSource: string;
  fields: readonly AccountFieldView[];
  fieldsSource: readonly { name: string; value: string }[];
  actorType: string;
  locked: boolean;
  discoverable: boolean | null;
  indexable: boolean;
  hideCollections: boolean | null;
  memorial: boolean;
  uri: string;
  url: string | null;
  avatarPath: string | null;
  headerPath: string | null;
  suspendedAt: string | null;
  silencedAt: string | null;
  statusesCount: number;
  followersCount: number;
  followingCount: number;
  lastStatusAt: string | null;
  createdAt: string;
}

/** A role as the Role entity and the role badge show it. */
export interface RoleView {
  id: string;
  name: string;
  color: string;
  permissions: number;
  highlighted: boolean;
}

/** What the Account serializer needs besides the row; loaded by the caller, never queried here. */
export interface AccountView {
  account: AccountData;
  /** The local user's role, when it is highlighted (shown as a badge). */
  role?: RoleView;
  /** The account this one moved to. */
  moved?: AccountView;
  /** The enabled custom emojis its display name, bio and fields name. */
  emojis?: readonly CustomEmojiView[];
}

/** What CredentialAccount reads of the owner's user (its settings). */
export interface CredentialUserView {
  settings: {
    privacy?: "public" | "unlisted" | "private" | "direct";
    sensitive?: boolean;
    language?: string | null;
    quotePolicy?: "public" | "followers" | "nobody";
    attributionDomains?: string[];
  };
}

export interface MediaUrls {
  baseUrl: string;
  blobUrl(key: string): string;
}

export const MISSING_AVATAR = "/avatars/original/missing.png";
export const MISSING_HEADER = "/headers/original/missing.png";

/**
 * A stored image, else the default one. A remote image not cached here (yet, or any more) is
 * never linked: every viewer's client would fetch an address the remote server chose (Mastodon
 * shows `missing.png` too).
 */
function mediaUrl(urls: MediaUrls, path: string | null, missing: string): string {
  return path ? urls.blobUrl(path) : `${urls.baseUrl}${missing}`;
}

export function acctOf(a: { username: string; domain: string | null }): string {
  return a.domain === null ? a.username : `${a.username}@${a.domain}`;
}

/**
 * Mastodon's Account entity. A suspended account is shown as Mastodon 4.4 shows one
 * (`unavailable?`): `suspended: true`, an empty name, bio, fields and emojis, the default
 * avatar and header, `locked`, `bot`, `discoverable` and `indexable` false, no role badge and no
 * `moved`; its counts stay. A silenced one carries `limited: true`, for every viewer.
 */
export function serializeAccount(view: AccountView, urls: MediaUrls): Record<string, unknown> {
  const a = view.account;
  const suspended = a.suspendedAt !== null;
  const avatar = mediaUrl(urls, suspended ? null : a.avatarPath, MISSING_AVATAR);
  const header = mediaUrl(urls, suspended ? null : a.headerPath, MISSING_HEADER);
  const out: Record<string, unknown> = {
    id: a.id,
    username: a.username,
    acct: acctOf(a),
    display_name: suspended ? "" : a.displayName,
    locked: suspended ? false : a.locked,
    bot: suspended ? false : a.actorType === "Service" || a.actorType === "Application",
    discoverable: suspended ? false : a.discoverable,
    indexable: suspended ? false : a.indexable,
    group: a.actorType === "Group",
    created_at: midnight(a.createdAt),
    note: suspended ? "" : a.note,
    url: a.url ?? a.uri,
    uri: a.uri,
    avatar,
    avatar_static: avatar,
    avatar_description: "",
    header,
    header_static: header,
    header_description: "",
    followers_count: a.followersCount,
    following_count: a.followingCount,
    statuses_count: a.statusesCount,
    last_status_at: a.lastStatusAt ? a.lastStatusAt.slice(0, 10) : null,
    hide_collections: a.hideCollections,
    emojis: suspended ? [] : (view.emojis ?? []).map((e) => serializeCustomEmoji(e, urls.blobUrl)),
    roles:
      !suspended && view.role?.highlighted ? [{ id: view.role.id, name: view.role.name, color: view.role.color }] : [],
    fields: suspended ? [] : a.fields,
  };
  if (a.domain === null) out.noindex = !a.indexable && a.discoverable === false;
  if (suspended) out.suspended = true;
  if (a.silencedAt !== null) out.limited = true;
  if (a.memorial) out.memorial = true;
  if (view.moved && !suspended) out.moved = serializeAccount(view.moved, urls);
  return out;
}

/** Mastodon's Role entity (inside CredentialAccount and Admin::Account). */
export function serializeRole(role: RoleView): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    permissions: String(role.permissions),
    color: role.color,
    highlighted: role.highlighted,
  };
}

/** CredentialAccount: the Account plus `source` and `role`, for its owner only. */
export function serializeCredentialAccount(
  view: AccountView & { user: CredentialUserView; fullRole: RoleView; followRequestsCount: number },
  urls: MediaUrls,
): Record<string, unknown> {
  const a = view.account;
  const s = view.user.settings;
  return {
    ...serializeAccount(view, urls),
    source: {
      privacy: defaultPrivacy(a, view.user),
      sensitive: s.sensitive ?? false,
      language: s.language ?? "",
      note: a.noteSource,
      fields: a.fieldsSource.map((f) => ({ name: f.name, value: f.value, verified_at: null })),
      follow_requests_count: view.followRequestsCount,
      hide_collections: a.hideCollections,
      discoverable: a.discoverable,
      indexable: a.indexable,
      attribution_domains: s.attributionDomains ?? [],
      quote_policy: s.quotePolicy ?? "public",
    },
    role: serializeRole(view.fullRole),
  };
}
