import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { ApiError } from "../../lib/errors.ts";
import { STATUS_LIMITS } from "../../lib/limits.ts";
import { extractEntities } from "../../lib/text/entities.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import { countableLength } from "../../lib/text/length.ts";
import { plainTextToHtml } from "../../lib/text/plain-text-to-html.ts";
import { tagUrl } from "../../serializers/status.ts";
import { resolveAcct } from "../accounts/resolve.ts";

/** At most this many accounts are looked up for mentions in one post. */
const MAX_MENTION_LOOKUPS = 50;
/** Unknown remote accounts resolved for one post, and the time all of them may take. */
const MAX_MENTION_RESOLUTIONS = 5;
const MENTION_RESOLUTION_MS = 10_000;

/** A post's text, rendered: HTML, the accounts it mentions and the hashtags it uses. */
export interface ComposedText {
  content: string;
  mentions: Account[];
  tags: { name: string; display: string }[];
}

/** Text plus content warning within 500 characters, URLs counting 23 (Mastodon's StatusLengthValidator). */
export function checkLength(text: string, spoilerText: string): void {
  if (countableLength(spoilerText + text) > STATUS_LIMITS.maxCharacters) {
    throw new ApiError(422, `Validation failed: Text character limit of ${STATUS_LIMITS.maxCharacters} exceeded`);
  }
}

/** The hashtags a post's text uses, by their normalised names (each once). */
export function hashtagNames(text: string): string[] {
  const names = new Set<string>();
  for (const e of extractEntities(text.replace(/\r\n?/g, "\n"))) {
    if (e.kind === "hashtag") names.add(normalizeHashtag(e.tag));
  }
  names.delete("");
  return [...names];
}

/**
 * Renders a post: paragraphs, line breaks and shortened links; `@user` and `@user@domain`
 * linked when the account is known here and may be mentioned (others stay text); hashtags linked.
 */
export async function composeText(ctx: AppContext, text: string): Promise<ComposedText> {
  const entities = extractEntities(text.replace(/\r\n?/g, "\n"));
  const localDomains = new Set([ctx.config.localDomain.toLowerCase(), ctx.config.webDomain.toLowerCase()]);
  const keyOf = (username: string, domain: string | null) =>
    `${username.toLowerCase()}@${domain !== null && !localDomains.has(domain.toLowerCase()) ? domain.toLowerCase() : ""}`;
  const found = new Map<string, Account | null>();
  let resolving: { left: number; signal: AbortSignal } | undefined;
  for (const e of entities) {
    if (e.kind !== "mention") continue;
    const key = keyOf(e.username, e.domain);
    if (found.has(key) || found.size >= MAX_MENTION_LOOKUPS) continue;
    const domain = key.slice(key.indexOf("@") + 1) || null;
    let account = await ctx.repos.accounts.getMentionable(e.username, domain);
    // An unknown remote account is resolved (WebFinger) so the post reaches it; a few per post,
    // within one time budget, so a post never waits long for slow servers.
    if (!account && domain !== null) {
      resolving ??= { left: MAX_MENTION_RESOLUTIONS, signal: AbortSignal.timeout(MENTION_RESOLUTION_MS) };
      if (resolving.left > 0 && !resolving.signal.aborted) {
        resolving.left--;
        const resolved = await resolveAcct(ctx, `${e.username}@${domain}`, { signal: resolving.signal });
        if (resolved) account = await ctx.repos.accounts.getMentionable(resolved.username, resolved.domain);
      }
    }
    found.set(key, account ?? null);
  }
  const mentioned = new Map<string, Account>();
  const content = plainTextToHtml(text, {
    multiline: true,
    tagUrl: (tag) => tagUrl(ctx.config.baseUrl, normalizeHashtag(tag)),
    mention: (username, domain) => {
      const a = found.get(keyOf(username, domain));
      if (!a) return undefined;
      mentioned.set(a.id, a);
      return {
        url: a.url ?? a.uri,
        username: a.username,
        acct: a.domain === null ? a.username : `${a.username}@${a.domain}`,
      };
    },
  });
  const tags = new Map<string, string>();
  for (const e of entities) {
    if (e.kind !== "hashtag") continue;
    const name = normalizeHashtag(e.tag);
    if (name !== "" && !tags.has(name)) tags.set(name, e.tag);
  }
  return { content, mentions: [...mentioned.values()], tags: [...tags].map(([name, display]) => ({ name, display })) };
}
