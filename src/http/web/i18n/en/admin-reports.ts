/** English texts of the moderation panel's reports part (keys prefixed `admin.reports.`). */
export const admin_reports = {} as const;
