/**
 * Hashtag names as Mastodon's HashtagNormalizer matches them: compatibility forms composed (NFKC,
 * so full-width `ｃａｆｅ` is `cafe` and `e` + combining accent is `é`), lower case, accented Latin
 * letters folded to ASCII (`café` is `cafe`), and anything but letters, marks, decimal digits and
 * the separators `_`, `·`, `・` and ZWNJ removed. A tag is stored and looked up by this name;
 * its display name stays as first written.
 */

/** Characters a hashtag may keep (Mastodon: `[[:alnum:]]` and its hashtag separators). */
const INVALID = /[^\p{L}\p{M}\p{Nd}_\u00b7\u30fb\u200c]/gu;

/**
 * Latin-1 Supplement and Latin Extended-A letters that Mastodon folds to ASCII: the ones whose
 * canonical decomposition is an ASCII letter with marks, and these, which have none.
 */
const UNDECOMPOSED: Record<string, string> = {
  Ð: "D",
  ð: "d",
  Đ: "D",
  đ: "d",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  ĸ: "k",
  Ŀ: "L",
  ŀ: "l",
  Ł: "L",
  ł: "l",
  ŉ: "n",
  Ŋ: "N",
  ŋ: "n",
  Ø: "O",
  ø: "o",
  ſ: "s",
  Ŧ: "T",
  ŧ: "t",
};

function foldingTable(): Map<string, string> {
  const table = new Map<string, string>(Object.entries(UNDECOMPOSED));
  for (let cp = 0xc0; cp <= 0x17f; cp++) {
    const c = String.fromCodePoint(cp);
    const base = c.normalize("NFD").replace(/\p{M}/gu, "");
    if (base !== c && /^[A-Za-z]$/.test(base)) table.set(c, base);
  }
  return table;
}

const FOLDING = foldingTable();

/** Mastodon's ASCII folding of accented Latin letters (other scripts are left alone). */
export function foldLatin(s: string): string {
  return s.replace(/[\u00c0-\u017f]/g, (c) => FOLDING.get(c) ?? c);
}

/** The name a hashtag is stored and matched by (without `#`); empty when nothing valid is left. */
export function normalizeHashtag(name: string): string {
  return foldLatin(name.normalize("NFKC").toLowerCase()).replace(INVALID, "");
}

/** A hashtag as written, without the characters a hashtag cannot hold (Mastodon's display name). */
export function hashtagDisplayName(name: string): string {
  return name.replace(INVALID, "");
}
