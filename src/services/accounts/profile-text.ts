import type { AppContext } from "../../context.ts";
import type { Account, AccountField } from "../../db/repositories/accounts.ts";
import { extractMentions } from "../../lib/text/entities.ts";
import { type MentionTarget, plainTextToHtml } from "../../lib/text/plain-text-to-html.ts";
import { acctOf } from "../../serializers/account.ts";

/** At most this many distinct mentions in a profile are looked up and linked. */
const MAX_MENTIONS = 20;

/** The domain part of a mention, or null when it names this server. */
function remoteDomain(ctx: AppContext, domain: string | null): string | null {
  if (domain === null) return null;
  const d = domain.toLowerCase();
  return d === ctx.config.localDomain || d === ctx.config.webDomain ? null : d;
}

export interface ProfileFieldSource {
  name: string;
  value: string;
}

/** Loads the accounts mentioned in `texts` that may be mentioned (not unconfirmed, unapproved or suspended). */
async function loadMentions(ctx: AppContext, texts: readonly string[]): Promise<Map<string, Account>> {
  const keys = new Map<string, { username: string; domain: string | null }>();
  for (const text of texts) {
    for (const m of extractMentions(text)) {
      const domain = remoteDomain(ctx, m.domain);
      const key = `${m.username}@${domain ?? ""}`.toLowerCase();
      if (!keys.has(key) && keys.size < MAX_MENTIONS) keys.set(key, { username: m.username, domain });
    }
  }
  const found = new Map<string, Account>();
  for (const [key, m] of keys) {
    const account = await ctx.repos.accounts.getMentionable(m.username, m.domain);
    if (account) found.set(key, account);
  }
  return found;
}

/** Renders a local profile's bio and field values to HTML, with links, hashtags and known mentions. */
export async function renderProfileText(
  ctx: AppContext,
  input: { note?: string; fields?: readonly ProfileFieldSource[] },
  previousFields: readonly AccountField[],
): Promise<{ note?: string; fields?: AccountField[] }> {
  const texts = [input.note ?? "", ...(input.fields ?? []).map((f) => f.value)];
  const mentions = await loadMentions(ctx, texts);
  const base = ctx.config.baseUrl;
  const opts = {
    tagUrl: (tag: string) => `${base}/tags/${encodeURIComponent(tag)}`,
    mention: (username: string, domain: string | null): MentionTarget | undefined => {
      const a = mentions.get(`${username}@${remoteDomain(ctx, domain) ?? ""}`.toLowerCase());
      return a && { url: a.url ?? a.uri, username: a.username, acct: acctOf(a) };
    },
  };
  return {
    note: input.note === undefined ? undefined : plainTextToHtml(input.note, opts),
    fields: input.fields?.map((f) => {
      const value = plainTextToHtml(f.value, { ...opts, multiline: false, relMe: true, withDomains: true });
      // A verification survives as long as the value it verified is unchanged (Mastodon's rule).
      const verifiedAt = previousFields.find((p) => p.verified_at && p.value === value)?.verified_at ?? null;
      return { name: f.name, value, verified_at: verifiedAt };
    }),
  };
}
