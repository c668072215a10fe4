/** English texts of the web side's `settings` area (keys prefixed `settings.`). */
export const settings = {} as const;
