import type { Context, Hono } from "hono";
import { notFound } from "../../../../lib/errors.ts";
import {
  serializeActivityWeek,
  serializeDatedText,
  serializeRule,
  serializeTermsOfService,
} from "../../../../serializers/instance-texts.ts";
import { publicDomainBlockJson, publicDomainBlocks } from "../../../../services/instance/public-domain-blocks.ts";
import { isEndpointEnabled, SITE_SETTING } from "../../../../services/instance/site-settings.ts";
import {
  getExtendedDescription,
  getPrivacyPolicy,
  getRules,
  getTermsOfService,
} from "../../../../services/instance/site-texts.ts";
import { viewerAccount } from "../../../middleware/auth.ts";
import type { HonoEnv } from "../../../types.ts";
import { type InstanceDocuments, jsonText, PUBLIC_CACHE } from "./documents.ts";

const json = (c: Context<HonoEnv>, value: unknown) => jsonText(c, JSON.stringify(value), PUBLIC_CACHE.instance);

/**
 * The public sub-resources of `/api/v1/instance`. None needs a token; a token that is sent is
 * ignored (the auth middleware has already resolved it, nothing here checks it).
 */
export function instanceInfoRoutes(app: Hono<HonoEnv>, docs: (c: Context<HonoEnv>) => InstanceDocuments): void {
  app.get("/api/v1/instance", async (c) => jsonText(c, await docs(c).v1.get(), PUBLIC_CACHE.instance));

  app.get("/api/v1/instance/peers", async (c) => {
    if (!(await isEndpointEnabled(c.env.ctx, SITE_SETTING.peersApiEnabled))) throw notFound();
    return json(c, (await docs(c).stats.stats.get()).peers);
  });

  app.get("/api/v1/instance/activity", async (c) => {
    if (!(await isEndpointEnabled(c.env.ctx, SITE_SETTING.activityApiEnabled))) throw notFound();
    return json(c, (await docs(c).stats.activity.get()).map(serializeActivityWeek));
  });

  app.get("/api/v1/instance/rules", async (c) => json(c, (await getRules(c.env.ctx)).map(serializeRule)));

  app.get("/api/v1/instance/extended_description", async (c) =>
    json(c, serializeDatedText(await getExtendedDescription(c.env.ctx))),
  );

  app.get("/api/v1/instance/privacy_policy", async (c) =>
    json(c, serializeDatedText(await getPrivacyPolicy(c.env.ctx))),
  );

  app.get("/api/v1/instance/terms_of_service", async (c) => {
    const terms = await getTermsOfService(c.env.ctx);
    if (!terms) throw notFound();
    return json(c, serializeTermsOfService(terms));
  });

  app.get("/api/v1/instance/terms_of_service/:date", async (c) => {
    const date = c.req.param("date");
    const terms = /^\d{4}-\d{2}-\d{2}$/.test(date) ? await getTermsOfService(c.env.ctx, date) : undefined;
    if (!terms) throw notFound();
    return json(c, serializeTermsOfService(terms));
  });

  // `/api/v1/instance/translation_languages` is served with translation (api/v1/translation).

  // The moderated servers, as `show_domain_blocks` allows (Mastodon: 404 to whom they are not shown).
  app.get("/api/v1/instance/domain_blocks", async (c) => {
    const shown = await publicDomainBlocks(c.env.ctx, viewerAccount(c) !== undefined);
    if (!shown) throw notFound();
    const body = JSON.stringify(shown.blocks.map((b) => publicDomainBlockJson(b, shown.withComments)));
    // The same for everyone: cached as the other instance documents; else per reader.
    return jsonText(c, body, shown.sameForEveryone ? PUBLIC_CACHE.instance : "private, no-store");
  });

  app.get("/api/v1/instance/languages", async (c) => jsonText(c, await docs(c).languages.get(), PUBLIC_CACHE.static));
}
