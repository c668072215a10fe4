/** ISO 639-1 two-letter language codes (posting languages accepted for `source[language]`). */
const ISO_639_1 = `aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de
dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it
iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd
ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su
sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`;

export const LANGUAGE_CODES: ReadonlySet<string> = new Set(ISO_639_1.split(/\s+/).filter(Boolean));

export function isLanguageCode(s: string): boolean {
  return LANGUAGE_CODES.has(s);
}

/** A UI locale such as `en`, `pt-BR`, `zh-Hant` or `zh_TW`: a known language with an optional region or script. */
export function isLocale(s: string): boolean {
  const m = /^([a-z]{2,3})(?:[-_](?:[A-Z]{2}|[A-Za-z]{4}|\d{3}))?$/.exec(s);
  if (!m) return false;
  return m[1].length === 2 ? LANGUAGE_CODES.has(m[1]) : true;
}
