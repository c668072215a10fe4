/** English texts of the web client's timelines (keys prefixed `client.timelines.`). */
export const client_timelines = {} as const;
