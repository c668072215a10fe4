import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";
import { domainAllowPages } from "./domain-allows.ts";
import { domainBlockPages } from "./domain-blocks.ts";
import { emailBlockPages } from "./email-blocks.ts";
import { instancePages } from "./instances.ts";
import { ipBlockPages } from "./ip-blocks.ts";

/** The moderation panel's federation pages (docs/web-admin-federation.md). */
export function adminFederationPages(app: Hono<HonoEnv>): void {
  instancePages(app);
  domainBlockPages(app);
  domainAllowPages(app);
  emailBlockPages(app);
  ipBlockPages(app);
}
