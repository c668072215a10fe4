/** English texts of the moderation panel's federation part (keys prefixed `admin.federation.`). */
export const admin_federation = {} as const;
