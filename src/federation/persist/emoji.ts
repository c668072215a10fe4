import type { Context } from "@fedify/fedify";
import { type Emoji, Image, Link } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import { loaderOptions } from "./origin.ts";

const SHORTCODE_RE = /^:?([a-zA-Z0-9_]{2,}):?$/;
/** At most this many emojis are recorded from one object (Mastodon does not bound it; we do). */
const MAX_EMOJIS = 50;

/** Mastodon's `Emoji` tags of a remote object recorded as custom emojis of its domain. */
export async function persistEmojis(
  ctx: Context<AppContext>,
  domain: string,
  emojis: Emoji[],
  now: string,
): Promise<void> {
  const app = ctx.data;
  for (const emoji of emojis.slice(0, MAX_EMOJIS)) {
    const m = SHORTCODE_RE.exec(emoji.name?.toString() ?? "");
    if (!m) continue;
    const icon = await emoji.getIcon(loaderOptions(ctx)).catch(() => null);
    const url = icon instanceof Image ? icon.url : null;
    const href = url instanceof URL ? url.href : url instanceof Link ? (url.href?.href ?? null) : null;
    if (href === null || !/^https?:/i.test(href)) continue;
    await app.repos.customEmojis.upsertRemote({
      id: app.ids.next(),
      shortcode: m[1],
      domain,
      imageRemoteUrl: href,
      uri: emoji.id?.href ?? null,
      now,
    });
  }
}
