import type { Context } from "hono";
import type { AppContext } from "../../../../context.ts";
import { serializeInstance } from "../../../../serializers/instance.ts";
import { type NodeInfoVersion, serializeNodeInfo } from "../../../../serializers/instance-nodeinfo.ts";
import { serializeInstanceV1 } from "../../../../serializers/instance-v1.ts";
import { createDefaultImages, type DefaultImages } from "../../../../services/instance/default-images.ts";
import { type InstanceView, loadInstanceView } from "../../../../services/instance/instance-view.ts";
import { supportedLanguages } from "../../../../services/instance/languages.ts";
import { createInstanceStats, type InstanceStatsService } from "../../../../services/instance/stats.ts";
import { type TtlCached, ttlCached } from "../../../../services/instance/ttl-cache.ts";
import type { HonoEnv } from "../../../types.ts";

/** How long a serialised instance document is reused: short, so settings changes show quickly. */
export const DOCUMENT_TTL_MS = 5000;

/**
 * The instance documents of one app, serialised and kept briefly: these endpoints are polled by
 * every client and crawler, so a request costs a string copy, not a dozen queries.
 */
export interface InstanceDocuments {
  images: DefaultImages;
  stats: InstanceStatsService;
  v1: TtlCached<string>;
  v2: TtlCached<string>;
  nodeinfo: Record<NodeInfoVersion, TtlCached<string>>;
  /** `/api/v1/instance/languages` never changes while the process runs. */
  languages: TtlCached<string>;
}

export function createInstanceDocuments(ctx: AppContext): InstanceDocuments {
  const images = createDefaultImages();
  const stats = createInstanceStats(ctx);
  const ttl = Math.min(DOCUMENT_TTL_MS, ctx.config.instanceStatsCacheSeconds * 1000);
  const view = ttlCached<InstanceView>(ttl, () => loadInstanceView(ctx, { images, stats: () => stats.stats.get() }));
  const doc = (serialize: (v: InstanceView) => unknown) =>
    ttlCached(ttl, async () => JSON.stringify(serialize(await view.get())));
  return {
    images,
    stats,
    v1: doc(serializeInstanceV1),
    v2: doc(serializeInstance),
    nodeinfo: {
      "2.0": doc((v) => serializeNodeInfo(v, "2.0")),
      "2.1": doc((v) => serializeNodeInfo(v, "2.1")),
    },
    languages: ttlCached(Number.POSITIVE_INFINITY, async () => JSON.stringify(supportedLanguages())),
  };
}

/** One InstanceDocuments per AppContext, created on first use; held by the route closure. */
export function documentsPerContext(): (c: Context<HonoEnv>) => InstanceDocuments {
  const byContext = new WeakMap<AppContext, InstanceDocuments>();
  return (c) => {
    const ctx = c.env.ctx;
    let docs = byContext.get(ctx);
    if (!docs) {
      docs = createInstanceDocuments(ctx);
      byContext.set(ctx, docs);
    }
    return docs;
  };
}

/** Cache lifetimes sent to clients and proxies (Mastodon's: 3 minutes for instance, 30 for NodeInfo). */
export const PUBLIC_CACHE = {
  instance: "public, max-age=180",
  nodeinfo: "public, max-age=1800",
  static: "public, max-age=86400",
} as const;

/** A JSON body that is already serialised. */
export function jsonText(
  c: Context<HonoEnv>,
  body: string,
  cacheControl: string,
  contentType = "application/json; charset=utf-8",
): Response {
  return c.body(body, 200, { "Content-Type": contentType, "Cache-Control": cacheControl });
}
