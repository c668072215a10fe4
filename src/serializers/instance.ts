import { MASTODON_API_VERSION } from "../lib/version.ts";
import {
  accountsConfiguration,
  mediaConfiguration,
  pollsConfiguration,
  statusesConfiguration,
} from "./instance-configuration.ts";
import { type RuleView, serializeRule } from "./instance-texts.ts";

export interface ThumbnailView {
  url: string;
  blurhash: string | null;
  versions: { "@1x"?: string; "@2x"?: string } | null;
}

export interface RegistrationsView {
  enabled: boolean;
  approvalRequired: boolean;
  message: string | null;
  minAge: number | null;
  reasonRequired: boolean;
  url: string | null;
}

/** Everything the instance serializers (v1, v2, NodeInfo) need, loaded in a few queries (services/instance/instance-view.ts). */
export interface InstanceView {
  domain: string;
  /** The operator's site settings. */
  site: { title: string; shortDescription: string; contactEmail: string };
  version: string;
  sourceUrl: string;
  streamingUrl: string;
  languages: string[];
  thumbnail: ThumbnailView;
  icons: { src: string; size: string }[];
  vapidPublicKey: string;
  registrations: RegistrationsView;
  urls: { status: string | null; about: string; privacyPolicy: string; termsOfService: string | null };
  /** The contact account, already in Mastodon's Account shape. */
  contactAccount: Record<string, unknown> | null;
  rules: readonly RuleView[];
  /** Who may read the local and remote live feeds (the operator's settings). */
  liveFeeds: { local: "public" | "authenticated" | "disabled"; remote: "public" | "authenticated" | "disabled" };
  /** Whether a translation backend is configured (DeepL or LibreTranslate). */
  translationEnabled: boolean;
  /** Usage numbers; `peers` are the remote domains known here. */
  stats: {
    userCount: number;
    activeMonth: number;
    activeHalfyear: number;
    localPosts: number;
    peers: readonly string[];
  };
}

/** Hashtag and trending link feeds are open to anyone; the live feeds follow the operator's settings. */
function timelinesAccess(v: InstanceView) {
  return {
    live_feeds: { local: v.liveFeeds.local, remote: v.liveFeeds.remote },
    hashtag_feeds: { local: "public", remote: "public" },
    trending_link_feeds: { local: "public", remote: "public" },
  };
}

/** Mastodon's Instance entity (`GET /api/v2/instance`). */
export function serializeInstance(v: InstanceView): Record<string, unknown> {
  return {
    domain: v.domain,
    title: v.site.title,
    version: v.version,
    source_url: v.sourceUrl,
    description: v.site.shortDescription,
    usage: { users: { active_month: v.stats.activeMonth } },
    thumbnail: {
      url: v.thumbnail.url,
      ...(v.thumbnail.blurhash ? { blurhash: v.thumbnail.blurhash } : {}),
      ...(v.thumbnail.versions ? { versions: v.thumbnail.versions } : {}),
    },
    icon: v.icons,
    languages: v.languages,
    configuration: {
      urls: {
        streaming: v.streamingUrl,
        status: v.urls.status,
        about: v.urls.about,
        privacy_policy: v.urls.privacyPolicy,
        terms_of_service: v.urls.termsOfService,
      },
      vapid: { public_key: v.vapidPublicKey },
      accounts: accountsConfiguration(),
      statuses: statusesConfiguration(),
      media_attachments: mediaConfiguration(2),
      polls: pollsConfiguration(),
      translation: { enabled: v.translationEnabled },
      timelines_access: timelinesAccess(v),
      limited_federation: false,
    },
    registrations: {
      enabled: v.registrations.enabled,
      approval_required: v.registrations.approvalRequired,
      message: v.registrations.message,
      min_age: v.registrations.minAge,
      reason_required: v.registrations.reasonRequired,
      url: v.registrations.url,
    },
    api_versions: { mastodon: MASTODON_API_VERSION },
    contact: { email: v.site.contactEmail, account: v.contactAccount },
    rules: v.rules.map(serializeRule),
  };
}
