import { GANNET_HOMEPAGE, GANNET_VERSION, MASTODON_COMPAT_VERSION, SOFTWARE_NAME } from "../lib/version.ts";
import type { InstanceView } from "./instance.ts";

export const NODEINFO_VERSIONS = ["2.0", "2.1"] as const;
export type NodeInfoVersion = (typeof NODEINFO_VERSIONS)[number];

export const nodeInfoSchemaUrl = (version: NodeInfoVersion): string =>
  `http://nodeinfo.diaspora.software/ns/schema/${version}`;

/** `/.well-known/nodeinfo`: where the documents are. */
export function serializeNodeInfoLinks(baseUrl: string): Record<string, unknown> {
  return {
    links: NODEINFO_VERSIONS.map((v) => ({ rel: nodeInfoSchemaUrl(v), href: `${baseUrl}/nodeinfo/${v}` })),
  };
}

/**
 * A NodeInfo document with exactly the keys its schema allows. `metadata.upstream` tells
 * clients such as megalodon to speak the Mastodon API to this server.
 */
export function serializeNodeInfo(v: InstanceView, version: NodeInfoVersion): Record<string, unknown> {
  const software: Record<string, string> = { name: SOFTWARE_NAME, version: GANNET_VERSION };
  if (version === "2.1") {
    software.repository = v.sourceUrl;
    software.homepage = GANNET_HOMEPAGE;
  }
  return {
    version,
    software,
    protocols: ["activitypub"],
    services: { inbound: [], outbound: [] },
    // As Mastodon: anyone may sign up (possibly pending approval) unless registrations are closed.
    openRegistrations: v.registrations.enabled,
    usage: {
      users: { total: v.stats.userCount, activeMonth: v.stats.activeMonth, activeHalfyear: v.stats.activeHalfyear },
      localPosts: v.stats.localPosts,
    },
    metadata: {
      nodeName: v.site.title,
      nodeDescription: v.site.shortDescription,
      upstream: { name: "mastodon", version: MASTODON_COMPAT_VERSION },
    },
  };
}
