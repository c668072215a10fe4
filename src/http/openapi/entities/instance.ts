import { z } from "zod";
import { Account } from "./accounts.ts";
import { count, date, dateTime, entity, id, url } from "./common.ts";

export const Rule = entity(
  "Rule",
  "One of the server's rules, with an optional longer hint.",
  z.object({ id: id(), text: z.string(), hint: z.string(), translations: z.record(z.string(), z.unknown()) }),
);

const statusesConfiguration = z.object({
  max_characters: count(),
  max_media_attachments: count(),
  characters_reserved_per_url: count(),
});

const mediaLimits = {
  supported_mime_types: z.array(z.string()),
  image_size_limit: count(),
  image_matrix_limit: count(),
  video_size_limit: count(),
  video_frame_rate_limit: count(),
  video_matrix_limit: count(),
};

const pollsConfiguration = z.object({
  max_options: count(),
  max_characters_per_option: count(),
  min_expiration: count(),
  max_expiration: count(),
});

const feedAccess = () => z.enum(["public", "authenticated", "disabled"]);
const feedsAccess = () => z.object({ local: feedAccess(), remote: feedAccess() });

export const Instance = entity(
  "Instance",
  "What the server is and how it is set up (v2): title, limits, registrations, contact, rules.",
  z.object({
    domain: z.string(),
    title: z.string(),
    version: z.string(),
    source_url: url(),
    description: z.string(),
    usage: z.object({ users: z.object({ active_month: count() }) }),
    thumbnail: z.object({
      url: url(),
      blurhash: z.string().optional(),
      versions: z.object({ "@1x": url().optional(), "@2x": url().optional() }).optional(),
    }),
    icon: z.array(z.object({ src: url(), size: z.string() })),
    languages: z.array(z.string()),
    configuration: z.object({
      urls: z.object({
        streaming: url(),
        status: url().nullable(),
        about: url(),
        privacy_policy: url(),
        terms_of_service: url().nullable(),
      }),
      vapid: z.object({ public_key: z.string() }),
      accounts: z.object({
        max_featured_tags: count(),
        max_pinned_statuses: count(),
        max_display_name_length: count(),
        max_note_length: count(),
        max_avatar_description_length: count(),
        max_header_description_length: count(),
        max_profile_fields: count(),
        profile_field_name_limit: count(),
        profile_field_value_limit: count(),
      }),
      statuses: statusesConfiguration,
      media_attachments: z.object({ ...mediaLimits, description_limit: count() }),
      polls: pollsConfiguration,
      translation: z.object({ enabled: z.boolean() }),
      timelines_access: z.object({
        live_feeds: feedsAccess(),
        hashtag_feeds: feedsAccess(),
        trending_link_feeds: feedsAccess(),
      }),
      limited_federation: z.boolean(),
    }),
    registrations: z.object({
      enabled: z.boolean(),
      approval_required: z.boolean(),
      message: z.string().nullable(),
      min_age: count().nullable(),
      reason_required: z.boolean(),
      url: url().nullable(),
    }),
    api_versions: z.object({ mastodon: count() }),
    contact: z.object({ email: z.string(), account: Account.nullable() }),
    rules: z.array(Rule),
  }),
);

export const InstanceV1 = entity(
  "InstanceV1",
  "The deprecated v1 description of the server, still read by many clients.",
  z.object({
    uri: z.string(),
    title: z.string(),
    short_description: z.string(),
    description: z.string(),
    email: z.string(),
    version: z.string(),
    urls: z.object({ streaming_api: url() }),
    stats: z.object({ user_count: count(), status_count: count(), domain_count: count() }),
    thumbnail: url(),
    languages: z.array(z.string()),
    registrations: z.boolean(),
    approval_required: z.boolean(),
    invites_enabled: z.boolean(),
    configuration: z.object({
      accounts: z.object({ max_featured_tags: count() }),
      statuses: statusesConfiguration,
      media_attachments: z.object(mediaLimits),
      polls: pollsConfiguration,
    }),
    contact_account: Account.nullable(),
    rules: z.array(Rule),
  }),
);

export const ExtendedDescription = entity(
  "ExtendedDescription",
  "The server's long description as HTML, with when it last changed (null if never set).",
  z.object({ updated_at: dateTime().nullable(), content: z.string() }),
);

export const PrivacyPolicy = entity(
  "PrivacyPolicy",
  "The server's privacy policy as HTML, with when it last changed.",
  z.object({ updated_at: dateTime(), content: z.string() }),
);

export const TermsOfService = entity(
  "TermsOfService",
  "One version of the terms of service: when it takes effect, whether it has, and the next version's date.",
  z.object({ effective_date: date(), effective: z.boolean(), content: z.string(), succeeded_by: date().nullable() }),
);

export const Activity = entity(
  "Activity",
  "One week of the server's activity: the week's start in Unix seconds, every count as a decimal string.",
  z.object({ week: z.string(), statuses: z.string(), logins: z.string(), registrations: z.string() }),
);

export const Language = entity(
  "Language",
  "A language a post may be tagged with: its ISO 639 code and English name.",
  z.object({ code: z.string(), name: z.string() }),
);

export const DomainBlock = entity(
  "DomainBlock",
  "A domain this server limits or suspends, as published (the domain may be partly hidden, `digest` is its SHA-256).",
  z.object({
    domain: z.string(),
    digest: z.string(),
    severity: z.enum(["silence", "suspend"]),
    comment: z.string().optional(),
  }),
);

export const DomainBlockPreview = entity(
  "DomainBlockPreview",
  "What blocking a domain would cut: how many of its accounts the user follows and are followed by.",
  z.object({ following_count: count(), followers_count: count() }),
);

export const NodeInfo = entity(
  "NodeInfo",
  "The NodeInfo 2.0 or 2.1 document (see the schemas at nodeinfo.diaspora.software): software, " +
    "protocols, usage; 2.1 adds the software's repository and homepage.",
  z.object({
    version: z.enum(["2.0", "2.1"]),
    software: z.object({
      name: z.string().regex(/^[a-z0-9-]+$/),
      version: z.string(),
      repository: url().optional(),
      homepage: url().optional(),
    }),
    protocols: z.array(z.string()).min(1),
    services: z.object({ inbound: z.array(z.string()), outbound: z.array(z.string()) }),
    openRegistrations: z.boolean(),
    usage: z.object({
      users: z.object({ total: count(), activeMonth: count(), activeHalfyear: count() }),
      localPosts: count(),
    }),
    metadata: z.record(z.string(), z.unknown()),
  }),
);

export const NodeInfoLinks = entity(
  "NodeInfoLinks",
  "`/.well-known/nodeinfo`: where each NodeInfo version's document is.",
  z.object({ links: z.array(z.object({ rel: url(), href: url() })) }),
);
