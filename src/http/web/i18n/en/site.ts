/** English texts of the web side's `site` area (keys prefixed `site.`). */
export const site = {} as const;
