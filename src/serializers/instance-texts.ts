/** One of the server's rules. */
export interface RuleView {
  id: string;
  text: string;
  hint: string;
}

/**
 * An HTML page of the operator's with the time it last changed (ExtendedDescription,
 * PrivacyPolicy); null while the operator has written no extended description.
 */
export interface DatedText {
  updatedAt: string | null;
  content: string;
}

/** One version of the terms of service, and where it stands today. */
export interface TermsOfServiceView {
  /** The calendar day (`YYYY-MM-DD`) it takes effect. */
  effectiveDate: string;
  content: string;
  effective: boolean;
  succeededBy: string | null;
}

/** One week of `/api/v1/instance/activity`; `week` is the Monday 00:00 UTC it starts, in ms. */
export interface ActivityWeek {
  week: number;
  statuses: number;
  logins: number;
  registrations: number;
}

/** Mastodon's Rule entity. */
export function serializeRule(r: RuleView): Record<string, unknown> {
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
