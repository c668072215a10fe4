/** English texts of the web client's pages (keys prefixed `client.pages.`). */
export const client_pages = {} as const;
