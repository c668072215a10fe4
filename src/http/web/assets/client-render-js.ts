import * as render from "../client/render.ts";

/**
 * The source text of a render module's functions, as one script defining them as globals. Node
 * strips types by replacing them with spaces, so a function's text is plain JavaScript, in
 * development and in the build (`scripts/build.ts` strips the same way).
 */
export function functionsSource(mod: Record<string, unknown>): string {
  return Object.values(mod)
    .filter((f): f is (...args: unknown[]) => unknown => typeof f === "function")
    .map((f) => f.toString())
    .join("\n");
}

/** `/assets/client-render.js`: the client's renderer (client/render.ts), shared with the server. */
export const clientRenderJs = `"use strict";
${functionsSource(render)}
`;
