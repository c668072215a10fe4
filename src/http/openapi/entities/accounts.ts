import { z } from "zod";
import { count, date, dateTime, entity, id, url } from "./common.ts";

export const CustomEmoji = entity(
  "CustomEmoji",
  "A custom emoji usable as :shortcode: in text; a remote one not copied here keeps its origin's URL.",
  z.object({
    shortcode: z.string(),
    url: z.string(),
    static_url: z.string(),
    visible_in_picker: z.boolean(),
    category: z.string().nullable(),
  }),
);

export const Field = entity(
  "Field",
  "One name/value pair of a profile's metadata table; `value` is HTML, `verified_at` set once a rel=me link checked out.",
  z.object({ name: z.string(), value: z.string(), verified_at: dateTime().nullable() }),
);

export const Role = entity(
  "Role",
  "A user role: `permissions` is a bit field written as a decimal string.",
  z.object({
    id: id(),
    name: z.string(),
    permissions: z.string(),
    color: z.string(),
    highlighted: z.boolean(),
  }),
);

/** A highlighted role as an Account shows it (a badge): no permissions. */
const AccountRole = z.object({ id: id(), name: z.string(), color: z.string() });

export const Account = entity(
  "Account",
  "A user, local or remote, as anyone may see it. Suspended accounts show no profile and zero counts.",
  z.object({
    id: id(),
    username: z.string(),
    acct: z.string(),
    display_name: z.string(),
    locked: z.boolean(),
    bot: z.boolean(),
    discoverable: z.boolean().nullable(),
    indexable: z.boolean(),
    group: z.boolean(),
    created_at: dateTime(),
    note: z.string(),
    url: url(),
    uri: url(),
    avatar: url(),
    avatar_static: url(),
    avatar_description: z.string(),
    header: url(),
    header_static: url(),
    header_description: z.string(),
    followers_count: count(),
    following_count: count(),
    statuses_count: count(),
    last_status_at: date().nullable(),
    hide_collections: z.boolean().nullable(),
    emojis: z.array(CustomEmoji),
    roles: z.array(AccountRole),
    fields: z.array(Field),
    noindex: z.boolean().optional(),
    suspended: z.literal(true).optional(),
    limited: z.literal(true).optional(),
    memorial: z.literal(true).optional(),
    get moved() {
      return Account.optional();
    },
  }),
);

export const Source = entity(
  "Source",
  "The owner's own view of their profile: the plain-text bio and fields as typed, and posting defaults.",
  z.object({
    privacy: z.enum(["public", "unlisted", "private", "direct"]),
    sensitive: z.boolean(),
    language: z.string(),
    note: z.string(),
    fields: z.array(Field),
    follow_requests_count: count(),
    hide_collections: z.boolean().nullable(),
    discoverable: z.boolean().nullable(),
    indexable: z.boolean(),
    attribution_domains: z.array(z.string()),
    quote_policy: z.string(),
  }),
);

export const CredentialAccount = entity(
  "CredentialAccount",
  "The signed-in user's own Account, with its `source` and full `role`.",
  Account.extend({ source: Source, role: Role }),
);

export const MutedAccount = entity(
  "MutedAccount",
  "An account the user mutes, with when the mute ends (null: never).",
  Account.extend({ mute_expires_at: dateTime().nullable() }),
);

export const PartialAccountWithAvatar = entity(
  "PartialAccountWithAvatar",
  "Just enough of an account to draw its avatar in a grouped notification.",
  z.object({
    id: id(),
    acct: z.string(),
    url: url(),
    avatar: url(),
    avatar_static: url(),
    locked: z.boolean(),
    bot: z.boolean(),
  }),
);

export const Relationship = entity(
  "Relationship",
  "How the signed-in user and one account relate: follows both ways, blocks, mutes, requests, note.",
  z.object({
    id: id(),
    following: z.boolean(),
    showing_reblogs: z.boolean(),
    notifying: z.boolean(),
    languages: z.array(z.string()).nullable(),
    followed_by: z.boolean(),
    blocking: z.boolean(),
    blocked_by: z.boolean(),
    muting: z.boolean(),
    muting_notifications: z.boolean(),
    muting_expires_at: dateTime().nullable(),
    requested: z.boolean(),
    requested_by: z.boolean(),
    domain_blocking: z.boolean(),
    endorsed: z.boolean(),
    note: z.string(),
  }),
);

export const FamiliarFollowers = entity(
  "FamiliarFollowers",
  "For one account, those among its followers whom the signed-in user follows.",
  z.object({ id: id(), accounts: z.array(Account) }),
);

export const Suggestion = entity(
  "Suggestion",
  "An account suggested to follow, with why (`sources`; `source` is the older single reason).",
  z.object({
    source: z.enum(["global", "past_interactions", "staff"]),
    sources: z.array(
      z.enum(["featured", "most_followed", "most_interactions", "similar_to_recently_followed", "friends_of_friends"]),
    ),
    account: Account,
  }),
);

export const FeaturedTag = entity(
  "FeaturedTag",
  "A hashtag shown on a profile, with how often (a decimal string) and when (a day) its owner last used it.",
  z.object({
    id: id(),
    name: z.string(),
    url: url(),
    statuses_count: z.string(),
    last_status_at: date().nullable(),
  }),
);

export const Profile = entity(
  "Profile",
  "The signed-in user's editable profile as stored: plain-text bio and fields, image URLs or null.",
  z.object({
    id: id(),
    display_name: z.string(),
    note: z.string(),
    fields: z.array(Field),
    avatar: url().nullable(),
    avatar_static: url().nullable(),
    avatar_description: z.string(),
    header: url().nullable(),
    header_static: url().nullable(),
    header_description: z.string(),
    locked: z.boolean(),
    bot: z.boolean(),
    hide_collections: z.boolean().nullable(),
    discoverable: z.boolean().nullable(),
    indexable: z.boolean(),
    show_media: z.boolean(),
    show_media_replies: z.boolean(),
    show_featured: z.boolean(),
    attribution_domains: z.array(z.string()),
  }),
);

export const Preferences = entity(
  "Preferences",
  "The signed-in user's posting and reading defaults, keyed by colon-separated setting names.",
  z.object({
    "posting:default:visibility": z.enum(["public", "unlisted", "private", "direct"]),
    "posting:default:sensitive": z.boolean(),
    "posting:default:language": z.string().nullable(),
    "posting:default:quote_policy": z.string(),
    "reading:expand:media": z.enum(["default", "show_all", "hide_all"]),
    "reading:expand:spoilers": z.boolean(),
  }),
);
