import { ACCOUNT_LIMITS } from "../lib/limits.ts";
import type { InstanceView } from "./instance.ts";
import { mediaConfiguration, pollsConfiguration, statusesConfiguration } from "./instance-configuration.ts";
import { serializeRule } from "./instance-texts.ts";

/** Mastodon's V1::Instance entity (`GET /api/v1/instance`, deprecated but used by many clients). */
export function serializeInstanceV1(v: InstanceView): Record<string, unknown> {
  return {
    uri: v.domain,
    title: v.site.title,
    short_description: v.site.shortDescription,
    // Since Mastodon 4.0 the v1 `description` is the short description too.
    description: v.site.shortDescription,
    email: v.site.contactEmail,
    version: v.version,
    urls: { streaming_api: v.streamingUrl },
    stats: {
      user_count: v.stats.userCount,
      status_count: v.stats.localPosts,
      domain_count: v.stats.peers.length,
    },
    thumbnail: v.thumbnail.url,
    languages: v.languages,
    registrations: v.registrations.enabled,
    approval_required: v.registrations.approvalRequired,
    invites_enabled: false,
    configuration: {
      accounts: { max_featured_tags: ACCOUNT_LIMITS.maxFeaturedTags },
      statuses: statusesConfiguration(),
      media_attachments: mediaConfiguration(1),
      polls: pollsConfiguration(),
    },
    contact_account: v.contactAccount,
    rules: v.rules.map(serializeRule),
  };
}
