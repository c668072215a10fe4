import { z } from "zod";
import {
  AUTO_DETECT,
  type BackendDeps,
  cacheIdOf,
  LANGUAGE_TAG,
  type LanguageMap,
  normalizeLanguage,
  request,
  type TranslationBackend,
  unexpected,
} from "./backend.ts";

/** The API address of each DeepL plan (DEEPL_PLAN); DEEPL_API_URL replaces it. */
const PLAN_URLS = { free: "https://api-free.deepl.com", pro: "https://api.deepl.com" } as const;

/** DeepL answers 456 when the account's character quota is used up. */
const FAILURES = { 456: "quota_exceeded" } as const;

const translateAnswer = z.object({
  translations: z.array(z.object({ text: z.string(), detected_source_language: z.string().optional() })),
});

const languagesAnswer = z.array(z.object({ language: z.string() }));

/**
 * DeepL's API v2 (`POST /v2/translate`, `GET /v2/languages`), as Mastodon's TranslationService::DeepL
 * speaks it: the key in an `Authorization: DeepL-Auth-Key` header, the texts as repeated `text`
 * form fields with `tag_handling=html`, so markup comes back where it was.
 */
export function createDeepL(
  config: { apiKey: string; plan: "free" | "pro"; url?: string },
  deps: BackendDeps,
): TranslationBackend {
  const base = (config.url ?? PLAN_URLS[config.plan]).replace(/\/+$/, "");
  const call = (path: string, init: RequestInit) =>
    request(
      deps,
      `${base}${path}`,
      {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `DeepL-Auth-Key ${config.apiKey}` },
      },
      FAILURES,
      "DeepL",
    );

  async function fetchLanguages(type: "source" | "target"): Promise<string[]> {
    const parsed = languagesAnswer.safeParse(await call(`/v2/languages?type=${type}`, { method: "GET" }));
    if (!parsed.success) throw unexpected(`DeepL's ${type} languages are not a list of languages`);
    return parsed.data
      .map((l) => l.language)
      .filter((l) => LANGUAGE_TAG.test(l))
      .map(normalizeLanguage);
  }

  return {
    provider: "DeepL.com",
    cacheId: cacheIdOf("DeepL", base),

    async translate(texts, source, target) {
      const form = new URLSearchParams();
      for (const text of texts) form.append("text", text);
      if (source !== null) form.set("source_lang", source.toUpperCase());
      form.set("target_lang", target.toUpperCase());
      form.set("tag_handling", "html");
      const answer = await call("/v2/translate", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      });
      const parsed = translateAnswer.safeParse(answer);
      if (!parsed.success || parsed.data.translations.length !== texts.length)
        throw unexpected("DeepL's answer does not hold one translation per text");
      return parsed.data.translations.map((t) => ({
        text: t.text,
        detectedSourceLanguage: t.detected_source_language?.toLowerCase(),
      }));
    },

    async languages() {
      const [sources, targets] = await Promise.all([fetchLanguages("source"), fetchLanguages("target")]);
      if (sources.length === 0 || targets.length === 0) throw unexpected("DeepL lists no languages");
      // DeepL no longer lists plain EN and PT as targets (only their regional forms) but still takes them.
      const allTargets = [...new Set(["en", "pt", ...targets])];
      const map: LanguageMap = {};
      for (const source of [AUTO_DETECT, ...new Set(sources)]) map[source] = allTargets.filter((t) => t !== source);
      return map;
    },
  };
}
