/** English texts of the web side's `profiles` area (keys prefixed `profiles.`). */
export const profiles = {} as const;
