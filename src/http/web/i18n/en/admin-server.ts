/** English texts of the moderation panel's server part (keys prefixed `admin.server.`). */
export const admin_server = {} as const;
