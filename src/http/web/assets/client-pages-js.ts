/** The web client's pages script (served as /assets/client-pages.js; runs after client-core.js). */
export const clientPagesJs = `"use strict";
`;
