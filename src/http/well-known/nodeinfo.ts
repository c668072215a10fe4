import type { Context, Hono } from "hono";
import { NODEINFO_VERSIONS, nodeInfoSchemaUrl, serializeNodeInfoLinks } from "../../serializers/instance-nodeinfo.ts";
import { type InstanceDocuments, jsonText, PUBLIC_CACHE } from "../api/v1/instance/documents.ts";
import type { HonoEnv } from "../types.ts";

/** NodeInfo discovery (`/.well-known/nodeinfo`) and the 2.0 and 2.1 documents. */
export function nodeInfoRoutes(app: Hono<HonoEnv>, docs: (c: Context<HonoEnv>) => InstanceDocuments): void {
  app.get("/.well-known/nodeinfo", (c) =>
    jsonText(c, JSON.stringify(serializeNodeInfoLinks(c.env.ctx.config.baseUrl)), PUBLIC_CACHE.nodeinfo),
  );
  for (const version of NODEINFO_VERSIONS) {
    const contentType = `application/json; profile="${nodeInfoSchemaUrl(version)}#"`;
    app.get(`/nodeinfo/${version}`, async (c) =>
      jsonText(c, await docs(c).nodeinfo[version].get(), PUBLIC_CACHE.nodeinfo, contentType),
    );
  }
}
