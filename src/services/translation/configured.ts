import type { TranslationConfig } from "../../config/index.ts";
import type { BackendDeps, TranslationBackend } from "./backend.ts";
import { createDeepL } from "./deepl.ts";
import { createLibreTranslate } from "./libre-translate.ts";

/** The configured backend (DeepL before LibreTranslate, as Mastodon chooses), or undefined for none. */
export function configuredBackend(config: TranslationConfig, deps: BackendDeps): TranslationBackend | undefined {
  if (config.deepl) return createDeepL(config.deepl, deps);
  if (config.libreTranslate) return createLibreTranslate(config.libreTranslate, deps);
  return undefined;
}
