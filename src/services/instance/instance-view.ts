import type { AppContext } from "../../context.ts";
import { instanceVersion } from "../../lib/version.ts";
import type { InstanceView, RegistrationsView, ThumbnailView } from "../../serializers/instance.ts";
import { accountJson } from "../accounts/views.ts";
import { liveFeedAccess } from "../feeds/live-feed-access.ts";
import { isTranslationConfigured } from "../translation/backend.ts";
import { BANNER_2X_PATH, BANNER_PATH, type DefaultImages, ICON_SIZES, iconPath } from "./default-images.ts";
import { loadSiteInfo, type SiteInfo } from "./site-settings.ts";
import { getTermsOfService } from "./site-texts.ts";
import type { InstanceStats } from "./stats.ts";
import { getVapidKeys } from "./vapid.ts";

/** Defined with the instance serializers (serializers/instance.ts), which it feeds. */
export type { InstanceView };

function registrationsOf(site: SiteInfo): RegistrationsView {
  const { registrationsMode } = site;
  const enabled = registrationsMode !== "none";
  const approvalRequired = registrationsMode === "approved";
  return {
    enabled,
    approvalRequired,
    // Mastodon shows the operator's message only while sign-ups are closed.
    message: enabled ? null : site.closedRegistrationsMessage,
    minAge: site.minAge,
    reasonRequired: approvalRequired && site.requireInviteText,
    url: null,
  };
}

/** The operator's chosen contact, else the first Owner; null when neither is usable. */
async function contactAccount(ctx: AppContext, site: SiteInfo): Promise<Record<string, unknown> | null> {
  let account = site.contactUsername ? await ctx.repos.accounts.getByUsername(site.contactUsername, null) : undefined;
  if (!account) {
    const owner = await ctx.repos.roles.getByName("Owner");
    const id = owner ? await ctx.repos.instance.firstAccountIdWithRole(owner.id) : undefined;
    account = id ? await ctx.repos.accounts.getById(id) : undefined;
  }
  if (!account || account.suspendedAt !== null) return null;
  return accountJson(ctx, account);
}

async function thumbnailOf(ctx: AppContext, site: SiteInfo, images: DefaultImages): Promise<ThumbnailView> {
  if (site.thumbnail) {
    return {
      url: site.thumbnail.url,
      blurhash: site.thumbnail.blurhash ?? null,
      versions: site.thumbnail.versions ?? null,
    };
  }
  const base = ctx.config.baseUrl;
  return {
    url: `${base}${BANNER_PATH}`,
    blurhash: await images.bannerBlurhash(),
    versions: { "@1x": `${base}${BANNER_PATH}`, "@2x": `${base}${BANNER_2X_PATH}` },
  };
}

export async function loadInstanceView(
  ctx: AppContext,
  deps: { images: DefaultImages; stats: () => Promise<InstanceStats> },
): Promise<InstanceView> {
  const { config } = ctx;
  const base = config.baseUrl;
  const site = await loadSiteInfo(ctx);
  const [thumbnail, vapid, contact, rules, terms, stats, liveFeeds] = await Promise.all([
    thumbnailOf(ctx, site, deps.images),
    getVapidKeys(ctx),
    contactAccount(ctx, site),
    ctx.repos.settings.rules(),
    getTermsOfService(ctx),
    deps.stats(),
    liveFeedAccess(ctx),
  ]);
  return {
    domain: config.localDomain,
    site,
    version: instanceVersion(),
    sourceUrl: config.sourceUrl,
    streamingUrl: config.streamingApiBaseUrl,
    languages: [config.defaultLocale.split(/[-_]/)[0]],
    thumbnail,
    icons: ICON_SIZES.map((s) => ({ src: `${base}${iconPath(s)}`, size: `${s}x${s}` })),
    vapidPublicKey: vapid.publicKey,
    registrations: registrationsOf(site),
    urls: {
      status: site.statusPageUrl,
      about: `${base}/about`,
      privacyPolicy: `${base}/privacy-policy`,
      termsOfService: terms ? `${base}/terms-of-service` : null,
    },
    contactAccount: contact,
    rules,
    liveFeeds,
    translationEnabled: isTranslationConfigured(config.translation),
    stats,
  };
}
