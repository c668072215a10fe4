/** The web client's timelines script (served as /assets/client-timelines.js; runs after client-core.js). */
export const clientTimelinesJs = `"use strict";
`;
