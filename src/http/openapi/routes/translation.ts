import { translateSchema } from "../../api/v1/translation/routes.ts";
import type { DocArea } from "../types.ts";
import { d } from "./common.ts";

const languages = {
  type: "object",
  description: "Each source language (`und`: detected by the backend) with the languages it translates into",
  additionalProperties: { type: "array", items: { type: "string" } },
};

/** Translation. */
export const translationDocs: DocArea = {
  tag: "Translation",
  description: "Translating posts through the configured backend (DeepL or LibreTranslate)",
  routes: {
    "POST /api/v1/statuses/:id{[0-9]+}/translate": d("Translate a post", "Translation", {
      description:
        "Translates the content, content warning, poll options and media descriptions of a public or unlisted " +
        "post in one request to the backend; the result is kept for a day per edit and language. 403: the " +
        "post may not be translated (not public or unlisted, already in that language, a language the " +
        "backend does not translate, nothing to translate); 404: no backend is configured; 503: the backend " +
        "failed, timed out or answered nonsense.",
      body: translateSchema,
      answers: { 503: "Error" },
      errors: [403, 404],
    }),
    "GET /api/v1/instance/translation_languages": d(
      "Translation pairs",
      { schema: languages, description: "`{}` when no backend is configured" },
      { auth: "none", tags: ["Instance"], answers: { 503: "Error" } },
    ),
  },
};
