/** Writes docs/openapi.json from the app's routes: `node src/http/openapi/write.ts` (npm run docs:openapi). */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "../app.ts";
import { withLazyRoutes } from "../lazy-area.ts";
import { buildDocument } from "./document.ts";

/** The text of docs/openapi.json: the document of a fresh app, with the templated server. */
export async function openapiText(): Promise<string> {
  return `${JSON.stringify(buildDocument(await withLazyRoutes(createApp().routes)).document, null, 2)}\n`;
}

export const OPENAPI_FILE = join(dirname(fileURLToPath(import.meta.url)), "../../../docs/openapi.json");

if (import.meta.main) {
  mkdirSync(dirname(OPENAPI_FILE), { recursive: true });
  writeFileSync(OPENAPI_FILE, await openapiText());
  console.log(`wrote ${OPENAPI_FILE}`);
}
