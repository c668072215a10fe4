/** The categories a report can have (Mastodon's), shared by the API's validation and the storage. */
export const REPORT_CATEGORIES = ["spam", "legal", "violation", "other"] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];
