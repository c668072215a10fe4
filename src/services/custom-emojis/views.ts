import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { CustomEmoji, ShortcodeQuery } from "../../db/repositories/custom-emojis.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { shortcodesIn } from "../../lib/text/shortcodes.ts";
import { serializeCustomEmoji } from "../../serializers/custom-emoji.ts";

/** Texts whose `:shortcode:`s name emojis of one domain (null: local). */
export interface EmojiSource {
  domain: string | null;
  texts: Iterable<string | null | undefined>;
}

/**
 * The enabled custom emojis each source names, in order of first appearance, with one query for
 * the whole list. Unknown and disabled shortcodes are left out; unlisted ones still count.
 */
export async function loadEmojis(ctx: AppContext, sources: readonly EmojiSource[]): Promise<CustomEmoji[][]> {
  const scanned = sources.map((s) => shortcodesIn(s.texts));
  const byDomain = new Map<string | null, Set<string>>();
  scanned.forEach((codes, i) => {
    if (codes.length === 0) return;
    const domain = sources[i]?.domain ?? null;
    const set = byDomain.get(domain) ?? new Set<string>();
    for (const c of codes) set.add(c);
    byDomain.set(domain, set);
  });
  const queries: ShortcodeQuery[] = [...byDomain].map(([domain, set]) => ({ domain, shortcodes: [...set] }));
  const key = (domain: string | null, shortcode: string) => `${domain ?? ""} ${shortcode}`;
  const found = new Map(
    (await ctx.repos.customEmojis.findEnabled(queries)).map((e) => [key(e.domain, e.shortcode), e]),
  );
  return scanned.map((codes, i) =>
    codes.flatMap((c) => {
      const e = found.get(key(sources[i]?.domain ?? null, c));
      return e ? [e] : [];
    }),
  );
}

/** Where an account's emojis are named: display name, bio and profile fields (names and values). */
export function accountEmojiSource(a: Account): EmojiSource {
  const local = a.domain === null;
  const fields = local ? a.fieldsSource : a.fields;
  return {
    domain: a.domain,
    texts: [a.displayName, local ? a.noteSource : a.note, ...fields.flatMap((f) => [f.name, f.value])],
  };
}

/** Where a status's emojis are named: its text (HTML for remote posts) and content warning. */
export function statusEmojiSource(
  s: Status,
  author: Account | undefined,
  pollOptions: readonly string[] = [],
): EmojiSource {
  return {
    domain: author?.domain ?? null,
    texts: [s.spoilerText, s.local ? s.text : s.text || s.content, ...pollOptions],
  };
}

/** `GET /api/v1/custom_emojis`: the local emojis shown in the picker, not disabled. */
export async function listedEmojisJson(ctx: AppContext): Promise<Record<string, unknown>[]> {
  const blobUrl = (key: string) => ctx.blobs.url(key);
  return (await ctx.repos.customEmojis.listListed()).map((e) => serializeCustomEmoji(e, blobUrl));
}
