import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Rule } from "../../db/repositories/settings.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { type SanitizeOptions, sanitizeHtml } from "../../lib/text/sanitize-html.ts";
import { type LiveFeedAccess, liveFeedAccess, liveFeedScope } from "../feeds/live-feed-access.ts";
import { publicTimeline } from "../feeds/timelines.ts";
import { BANNER_PATH } from "../instance/default-images.ts";
import { type PublicDomainBlock, publicDomainBlocks } from "../instance/public-domain-blocks.ts";
import { loadSiteInfo, type SiteInfo } from "../instance/site-settings.ts";
import { getExtendedDescription, getRules } from "../instance/site-texts.ts";
import { createInstanceStats, type InstanceStatsService } from "../instance/stats.ts";

/**
 * What the public site's pages show (`/`, `/about`, `/public/local`): the same settings, texts and
 * numbers as the instance API, gathered for one page.
 */

/** How sign-ups work here: open, with approval, or closed (with the operator's message). */
export type RegistrationMode = "open" | "approval" | "closed";

export interface AboutInfo {
  site: SiteInfo;
  domain: string;
  /** The banner: the operator's, else the default one. */
  thumbnail: { url: string; description: string | null; isDefault: boolean };
  rules: Rule[];
  contact: Account | null;
  stats: { userCount: number; localPosts: number };
  /** Sanitised HTML, empty when the operator wrote none. */
  extendedDescription: string;
  /** `closedMessage`: the operator's message while sign-ups are closed, sanitised HTML. */
  registrations: {
    mode: RegistrationMode;
    closedMessage: string | null;
    reasonRequired: boolean;
    minAge: number | null;
  };
  /** Undefined when the operator does not publish them to this reader. */
  domainBlocks: { blocks: PublicDomainBlock[]; withComments: boolean } | undefined;
  liveFeeds: LiveFeedAccess;
}

const statsByContext = new WeakMap<AppContext, InstanceStatsService>();
function statsOf(ctx: AppContext): InstanceStatsService {
  let s = statsByContext.get(ctx);
  if (!s) {
    s = createInstanceStats(ctx);
    statsByContext.set(ctx, s);
  }
  return s;
}

/** The operator's chosen contact, else the first Owner (as the instance API); null if unusable. */
async function contactAccount(ctx: AppContext, site: SiteInfo): Promise<Account | null> {
  let account = site.contactUsername ? await ctx.repos.accounts.getByUsername(site.contactUsername, null) : undefined;
  if (!account) {
    const owner = await ctx.repos.roles.getByName("Owner");
    const id = owner ? await ctx.repos.instance.firstAccountIdWithRole(owner.id) : undefined;
    account = id ? await ctx.repos.accounts.getById(id) : undefined;
  }
  return account && account.suspendedAt === null ? account : null;
}

/** The registration mode as the instance API reports it (`registrations.enabled` / `approval_required`). */
export function registrationMode(site: SiteInfo): RegistrationMode {
  const { registrationsMode } = site;
  if (registrationsMode === "none") return "closed";
  return registrationsMode === "approved" ? "approval" : "open";
}

const SITE_TAGS = [
  "p",
  "br",
  "hr",
  "a",
  "span",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "del",
  "s",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
];

function siteHtmlOptions(shift: 1 | 2): SanitizeOptions {
  // The page's own title is the one h1: the text's headings go down below the heading it sits under.
  const headings: Record<string, string> = {};
  for (let level = 1; level <= 6; level++) headings[`h${level}`] = `h${Math.min(level + shift, 6)}`;
  return {
    allowedTags: SITE_TAGS,
    allowedAttributes: { a: ["href", "rel"], ol: ["start", "reversed"], li: ["value"], th: ["scope"] },
    allowedSchemes: ["http", "https", "mailto"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    transformTags: {
      ...headings,
      a: (_tag, attribs) => {
        const out: Record<string, string> = attribs.href ? { href: attribs.href, rel: "nofollow noopener" } : {};
        return { tagName: "a", attribs: out };
      },
    },
  };
}
const SITE_HTML = { 1: siteHtmlOptions(1), 2: siteHtmlOptions(2) };

/**
 * An operator's text (extended description, privacy policy, terms, closed-registrations message)
 * made safe for a page: the usual text elements and links only; its headings `shift` levels down
 * (1 under the page's h1, 2 inside a section).
 */
export function sanitizeSiteHtml(html: string, shift: 1 | 2 = 1): string {
  return sanitizeHtml(html, SITE_HTML[shift]);
}

/** Everything the about page shows, for a reader who is signed in or not. */
export async function aboutInfo(ctx: AppContext, signedIn: boolean): Promise<AboutInfo> {
  const site = await loadSiteInfo(ctx);
  const [rules, contact, stats, extended, domainBlocks, liveFeeds] = await Promise.all([
    getRules(ctx),
    contactAccount(ctx, site),
    statsOf(ctx).stats.get(),
    getExtendedDescription(ctx),
    publicDomainBlocks(ctx, signedIn),
    liveFeedAccess(ctx),
  ]);
  const own = site.thumbnail as (SiteInfo["thumbnail"] & { description?: unknown }) | null;
  const mode = registrationMode(site);
  return {
    site,
    domain: ctx.config.localDomain,
    thumbnail: own
      ? { url: own.url, description: typeof own.description === "string" ? own.description : null, isDefault: false }
      : { url: BANNER_PATH, description: null, isDefault: true },
    rules,
    contact,
    stats: { userCount: stats.userCount, localPosts: stats.localPosts },
    extendedDescription: extended.content ? sanitizeSiteHtml(extended.content, 2) : "",
    registrations: {
      mode,
      closedMessage:
        mode === "closed" && site.closedRegistrationsMessage
          ? sanitizeSiteHtml(site.closedRegistrationsMessage, 2)
          : null,
      reasonRequired: mode === "approval" && site.requireInviteText,
      minAge: site.minAge,
    },
    domainBlocks,
    liveFeeds,
  };
}

/** One page of a live feed for the site's timeline pages. */
export type LiveFeedPage =
  | { refused: "signIn" | "none" }
  | {
      refused?: undefined;
      statuses: Status[];
      accounts: Map<string, Account>;
      /** How many attachments each post has (posts without any are absent). */
      mediaCounts: Map<string, number>;
      nextMaxId: string | undefined;
    };

/**
 * The local (or whole) public timeline as the API gives it to the same reader, with each post's
 * author; refused when the operator's live feed access does not let this reader see it.
 */
export async function liveFeedPage(
  ctx: AppContext,
  kind: "local" | "all",
  viewerId: string | undefined,
  window: IdWindow,
): Promise<LiveFeedPage> {
  const wanted = { local: kind === "local", remote: false };
  const scope = liveFeedScope(await liveFeedAccess(ctx), wanted, viewerId !== undefined);
  if (typeof scope === "string") return { refused: scope };
  const page = await publicTimeline(ctx, viewerId, { ...scope, onlyMedia: false }, window);
  const ids = [...new Set(page.visible.map((s) => s.accountId))];
  const [authors, media] = await Promise.all([
    ctx.repos.accounts.getByIds(ids),
    page.visible.length > 0 ? ctx.repos.media.listByStatuses(page.visible.map((s) => s.id)) : [],
  ]);
  const accounts = new Map(authors.map((a) => [a.id, a]));
  const mediaCounts = new Map<string, number>();
  for (const m of media) if (m.statusId) mediaCounts.set(m.statusId, (mediaCounts.get(m.statusId) ?? 0) + 1);
  const last = page.rows.at(-1);
  return {
    statuses: page.visible,
    accounts,
    mediaCounts,
    nextMaxId: page.rows.length >= window.limit && last ? last.id : undefined,
  };
}
