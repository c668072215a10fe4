import type { Rule } from "../db/repositories/settings.ts";
import type { DatedText, TermsOfServiceView } from "../services/instance/site-texts.ts";
import type { ActivityWeek } from "../services/instance/stats.ts";

/** Mastodon's Rule entity. */
export function serializeRule(r: Rule): Record<string, unknown> {
  return { id: r.id, text: r.text, hint: r.hint, translations: {} };
}

/** ExtendedDescription and PrivacyPolicy share this shape. */
export function serializeDatedText(t: DatedText): Record<string, unknown> {
  return { updated_at: t.updatedAt, content: t.content };
}

/** Mastodon's TermsOfService entity. */
export function serializeTermsOfService(t: TermsOfServiceView): Record<string, unknown> {
  return {
    effective_date: t.effectiveDate,
    effective: t.effective,
    content: t.content,
    succeeded_by: t.succeededBy,
  };
}

/** One week of instance activity: every value a string, `week` in Unix seconds. */
export function serializeActivityWeek(w: ActivityWeek): Record<string, string> {
  return {
    week: String(Math.floor(w.week / 1000)),
    statuses: String(w.statuses),
    logins: String(w.logins),
    registrations: String(w.registrations),
  };
}
