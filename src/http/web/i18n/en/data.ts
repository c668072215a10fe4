/** English texts of the web side's `data` area (keys prefixed `data.`). */
export const data = {} as const;
