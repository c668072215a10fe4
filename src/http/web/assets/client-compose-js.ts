/** The web client's compose script (served as /assets/client-compose.js; runs after client-core.js). */
export const clientComposeJs = `"use strict";
`;
