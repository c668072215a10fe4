/** A post's texts machine-translated (services/translation/translate-status.ts). */
export interface TranslationView {
  detectedSourceLanguage: string;
  /** The language translated into. */
  language: string;
  provider: string;
  spoilerText: string;
  content: string;
  poll: { id: string; options: { title: string }[] } | null;
  mediaAttachments: { id: string; description: string }[];
}

/** Mastodon's Translation entity, its members in REST::TranslationSerializer's order. */
export function serializeTranslation(v: TranslationView): Record<string, unknown> {
  return {
    detected_source_language: v.detectedSourceLanguage,
    language: v.language,
    provider: v.provider,
    spoiler_text: v.spoilerText,
    content: v.content,
    poll: v.poll && { id: v.poll.id, options: v.poll.options.map((o) => ({ title: o.title })) },
    media_attachments: v.mediaAttachments.map((m) => ({ id: m.id, description: m.description })),
  };
}
