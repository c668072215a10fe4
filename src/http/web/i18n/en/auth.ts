/** English texts of the web side's `auth` area (keys prefixed `auth.`). */
export const auth = {} as const;
