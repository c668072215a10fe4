import type { InstanceView } from "../services/instance/instance-view.ts";
import { MASTODON_API_VERSION } from "../services/instance/version.ts";
import {
  accountsConfiguration,
  mediaConfiguration,
  pollsConfiguration,
  statusesConfiguration,
} from "./instance-configuration.ts";
import { serializeRule } from "./instance-texts.ts";

/** Every public timeline is open to anyone: Gannet has no timeline access settings yet. */
const TIMELINES_ACCESS = {
  live_feeds: { local: "public", remote: "public" },
  hashtag_feeds: { local: "public", remote: "public" },
  trending_link_feeds: { local: "public", remote: "public" },
};

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
      translation: { enabled: false },
      timelines_access: TIMELINES_ACCESS,
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
