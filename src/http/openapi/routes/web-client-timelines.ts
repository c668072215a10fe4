import type { DocArea } from "../types.ts";

/** The web side's client-timelines pages (src/http/web/client/...). */
export const webClientTimelineDocs: DocArea = {
  tag: "Web client",
  description: "The web client's pages (docs/web-client.md)",
  routes: {},
};
