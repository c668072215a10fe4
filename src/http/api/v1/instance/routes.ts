import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";
import { hostMetaRoutes } from "../../../well-known/host-meta.ts";
import { nodeInfoRoutes } from "../../../well-known/nodeinfo.ts";
import { instanceV2Routes } from "../../v2/instance/routes.ts";
import { documentsPerContext } from "./documents.ts";
import { instanceImageRoutes } from "./image-routes.ts";
import { instanceInfoRoutes } from "./info-routes.ts";

/**
 * Everything that describes this server: instance v1 and v2 with their sub-resources, NodeInfo,
 * host-meta and the default banner and icons. They share one document cache per app.
 */
export function instanceRoutes(app: Hono<HonoEnv>): void {
  const docs = documentsPerContext();
  instanceInfoRoutes(app, docs);
  instanceV2Routes(app, docs);
  nodeInfoRoutes(app, docs);
  hostMetaRoutes(app);
  instanceImageRoutes(app, docs);
}
