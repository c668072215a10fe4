import type { AppContext } from "../../context.ts";
import type { Rule } from "../../db/repositories/settings.ts";
import type { DatedText, TermsOfServiceView } from "../../serializers/instance-texts.ts";
import { DEFAULT_PRIVACY_POLICY_DATE, defaultPrivacyPolicy } from "./default-texts.ts";
import { loadSiteInfo, SITE_SETTING } from "./site-settings.ts";

/** One version of the terms of service, effective from a calendar day (`YYYY-MM-DD`). */
export type TermsVersion = Pick<TermsOfServiceView, "effectiveDate" | "content">;

/** The server's rules, in the order the operator gave them. */
export function getRules(ctx: AppContext): Promise<Rule[]> {
  return ctx.repos.settings.rules();
}

type DatedKey = typeof SITE_SETTING.extendedDescription | typeof SITE_SETTING.privacyPolicy;

/** The stored text, if any; one stored without a date is dated from start-up. */
function datedTextOf(ctx: AppContext, v: unknown): DatedText | null {
  const t = v as Partial<DatedText> | null | undefined;
  if (!t || typeof t.content !== "string" || t.content.trim() === "") return null;
  return {
    content: t.content,
    updatedAt: typeof t.updatedAt === "string" ? t.updatedAt : new Date(ctx.startedAt).toISOString(),
  };
}

function domainOf(ctx: AppContext): string {
  return ctx.config.localDomain;
}

/**
 * The operator's "about" text. Until one is written it is empty and undated, as in Mastodon:
 * clients show their own placeholder then, and a made-up text would pass for the operator's.
 */
export async function getExtendedDescription(ctx: AppContext): Promise<DatedText> {
  return (
    datedTextOf(ctx, await ctx.repos.settings.get<unknown>(SITE_SETTING.extendedDescription)) ?? {
      content: "",
      updatedAt: null,
    }
  );
}

export async function getPrivacyPolicy(ctx: AppContext): Promise<DatedText> {
  const own = datedTextOf(ctx, await ctx.repos.settings.get<unknown>(SITE_SETTING.privacyPolicy));
  if (own) return own;
  const site = await loadSiteInfo(ctx);
  return {
    updatedAt: DEFAULT_PRIVACY_POLICY_DATE,
    content: defaultPrivacyPolicy({ ...site, domain: domainOf(ctx) }),
  };
}

async function setDated(ctx: AppContext, key: DatedKey, content: string): Promise<void> {
  const value: DatedText = { content, updatedAt: new Date().toISOString() };
  await ctx.repos.settings.set(key, value);
}

/** The operator's "about" text (HTML); an empty text removes it. */
export function setExtendedDescription(ctx: AppContext, html: string): Promise<void> {
  return setDated(ctx, SITE_SETTING.extendedDescription, html);
}

/** The operator's privacy policy (HTML); an empty text restores the default. */
export function setPrivacyPolicy(ctx: AppContext, html: string): Promise<void> {
  return setDated(ctx, SITE_SETTING.privacyPolicy, html);
}

async function termsVersions(ctx: AppContext): Promise<TermsVersion[]> {
  const v = await ctx.repos.settings.get<unknown>(SITE_SETTING.termsOfService);
  if (!Array.isArray(v)) return [];
  return v
    .filter(
      (t): t is TermsVersion =>
        typeof t?.content === "string" &&
        typeof t.effectiveDate === "string" &&
        /^\d{4}-\d{2}-\d{2}$/.test(t.effectiveDate),
    )
    .sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
}

function viewOf(all: TermsVersion[], i: number, today: string): TermsOfServiceView {
  const t = all[i];
  return {
    effectiveDate: t.effectiveDate,
    content: t.content,
    effective: t.effectiveDate <= today,
    succeededBy: all[i + 1]?.effectiveDate ?? null,
  };
}

/**
 * The terms in force today; before the first version takes effect, that upcoming version (so
 * users can read it ahead). Undefined when the operator published none.
 */
export async function getTermsOfService(ctx: AppContext, date?: string): Promise<TermsOfServiceView | undefined> {
  const all = await termsVersions(ctx);
  const today = new Date().toISOString().slice(0, 10);
  if (date !== undefined) {
    const i = all.findIndex((t) => t.effectiveDate === date);
    return i < 0 ? undefined : viewOf(all, i, today);
  }
  if (all.length === 0) return undefined;
  let current = 0;
  for (let i = 0; i < all.length; i++) if (all[i].effectiveDate <= today) current = i;
  return viewOf(all, current, today);
}

/** Publishes a version of the terms (replacing one with the same effective date). */
export async function publishTermsOfService(ctx: AppContext, version: TermsVersion): Promise<void> {
  const all = (await termsVersions(ctx)).filter((t) => t.effectiveDate !== version.effectiveDate);
  all.push({ effectiveDate: version.effectiveDate, content: version.content });
  await ctx.repos.settings.set(SITE_SETTING.termsOfService, all);
}
