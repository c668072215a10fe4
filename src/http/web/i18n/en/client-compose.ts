/** English texts of the web client's compose (keys prefixed `client.compose.`). */
export const client_compose = {} as const;
