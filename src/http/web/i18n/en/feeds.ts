/** English texts of the web side's `feeds` area (keys prefixed `feeds.`). */
export const feeds = {} as const;
