/** English texts of the moderation panel's dashboard part (keys prefixed `admin.dashboard.`). */
export const admin_dashboard = {} as const;
