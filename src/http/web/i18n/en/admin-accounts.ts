/** English texts of the moderation panel's accounts part (keys prefixed `admin.accounts.`). */
export const admin_accounts = {} as const;
