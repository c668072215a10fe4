import { z } from "zod";
import {
  AUTO_DETECT,
  type BackendDeps,
  cacheIdOf,
  LANGUAGE_TAG,
  type LanguageMap,
  request,
  type TranslationBackend,
  unexpected,
} from "./backend.ts";

/** LibreTranslate answers 403 for a key that is refused or out of quota. */
const FAILURES = { 403: "quota_exceeded" } as const;

const translateAnswer = z.object({
  translatedText: z.union([z.array(z.string()), z.string()]),
  detectedLanguage: z
    .union([
      z.array(z.object({ language: z.string().optional() }).nullable()),
      z.object({ language: z.string().optional() }),
    ])
    .optional(),
});

const languagesAnswer = z.array(z.object({ code: z.string(), targets: z.array(z.string()).optional() }));

/**
 * LibreTranslate's API (`POST /translate`, `GET /languages`), as Mastodon's
 * TranslationService::LibreTranslate speaks it: JSON with every text in `q`, `format: "html"`,
 * `source: "auto"` when the post has no language, and the API key in the body.
 */
export function createLibreTranslate(
  config: { endpoint: string; apiKey?: string },
  deps: BackendDeps,
): TranslationBackend {
  const base = config.endpoint.replace(/\/+$/, "");
  const json = { "content-type": "application/json", accept: "application/json" };

  return {
    provider: "LibreTranslate",
    cacheId: cacheIdOf("LibreTranslate", base),

    async translate(texts, source, target) {
      const body = { q: texts, source: source ?? "auto", target, format: "html", api_key: config.apiKey };
      const answer = await request(
        deps,
        `${base}/translate`,
        { method: "POST", headers: json, body: JSON.stringify(body) },
        FAILURES,
        "LibreTranslate",
      );
      const parsed = translateAnswer.safeParse(answer);
      if (!parsed.success) throw unexpected("LibreTranslate's answer holds no translated text");
      const { translatedText, detectedLanguage } = parsed.data;
      // A single text may come back as a plain string, as LibreTranslate answers a plain `q`.
      const translated = typeof translatedText === "string" && texts.length === 1 ? [translatedText] : translatedText;
      if (!Array.isArray(translated) || translated.length !== texts.length)
        throw unexpected("LibreTranslate's answer does not hold one translation per text");
      const detected = (i: number) => {
        const d = Array.isArray(detectedLanguage) ? detectedLanguage[i] : detectedLanguage;
        return d?.language && LANGUAGE_TAG.test(d.language) ? d.language.toLowerCase() : undefined;
      };
      return translated.map((text, i) => ({ text, detectedSourceLanguage: detected(i) ?? source ?? undefined }));
    },

    async languages() {
      const answer = await request(
        deps,
        `${base}/languages`,
        { method: "GET", headers: json },
        FAILURES,
        "LibreTranslate",
      );
      const parsed = languagesAnswer.safeParse(answer);
      if (!parsed.success) throw unexpected("LibreTranslate's languages are not a list of languages");
      const entries = parsed.data.filter((l) => LANGUAGE_TAG.test(l.code));
      if (entries.length === 0) throw unexpected("LibreTranslate lists no languages");
      const codes = entries.map((l) => l.code);
      const map: LanguageMap = {};
      for (const l of entries) {
        // Servers older than the `targets` member translate between any two of their languages.
        const targets = (l.targets ?? codes).filter((t) => LANGUAGE_TAG.test(t));
        map[l.code] = [...new Set(targets)].filter((t) => t !== l.code);
      }
      map[AUTO_DETECT] = [...new Set(Object.values(map).flat())].sort();
      return map;
    },
  };
}
