/** English texts of the web side's `security` area (keys prefixed `security.`). */
export const security = {} as const;
