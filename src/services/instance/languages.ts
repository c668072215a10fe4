/**
 * Languages a post may be tagged with (`/api/v1/instance/languages`): ISO 639-1 codes plus the
 * few ISO 639-3 languages Mastodon accepts that have no two-letter code.
 */
const CODES = (
  "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz " +
  "ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik " +
  "io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml " +
  "mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd " +
  "se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi " +
  "vo wa wo xh yi yo za zh zu ast chr ckb cnr csb gsw jbo kab kmr ldn lfn sco sma smj szl tok zba zgh"
).split(" ");

/** Names the built-in ICU data lacks (constructed and regional languages). */
const NAMES: Record<string, string> = {
  bh: "Bihari",
  cnr: "Montenegrin",
  ldn: "Láadan",
  lfn: "Lingua Franca Nova",
  tok: "Toki Pona",
  zba: "Balaibalan",
};

export interface LanguageEntry {
  code: string;
  name: string;
}

/** The list with English names; callers keep the result (it never changes while running). */
export function supportedLanguages(): LanguageEntry[] {
  const names = new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });
  return CODES.map((code) => ({ code, name: NAMES[code] ?? names.of(code) ?? code }));
}
