import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isId } from "../../lib/ids.ts";
import { publicFeedAccount } from "./feeds.ts";

/** Mastodon's default embed width, and the bounds Gannet keeps asked sizes in. */
export const OEMBED_DEFAULT_WIDTH = 400;
const MAX_SIZE = 4000;

/** The oEmbed answer for a post (Mastodon's OEmbedSerializer), before it is written as JSON. */
export interface OEmbed {
  type: "rich";
  version: "1.0";
  author_name: string;
  author_url: string;
  provider_name: string;
  provider_url: string;
  cache_age: number;
  html: string;
  width: number;
  height: number | null;
}

/**
 * The local post a page URL or ActivityPub URI names (`/@user/ID`, `/users/user/statuses/ID` on
 * this server), if anyone may see it: a live public or unlisted post (not a boost) of a public
 * local account. Followers-only and direct posts are not embeddable (Mastodon's `hidden?`).
 */
export async function embeddableStatus(
  ctx: AppContext,
  raw: string,
): Promise<{ account: Account; status: Status } | undefined> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.host !== new URL(ctx.config.baseUrl).host) return undefined;
  const m = /^\/(?:@([A-Za-z0-9_]+)|users\/([A-Za-z0-9_]+)\/statuses)\/([0-9]{1,20})\/?$/.exec(url.pathname);
  const username = m?.[1] ?? m?.[2];
  const id = m?.[3];
  if (!username || !id || !isId(id)) return undefined;
  const account = await publicFeedAccount(ctx, username);
  if (!account) return undefined;
  const status = await ctx.repos.statuses.getById(id);
  if (!status || status.accountId !== account.id || status.reblogOfId !== null || status.deletedAt !== null) {
    return undefined;
  }
  if (status.visibility !== "public" && status.visibility !== "unlisted") return undefined;
  return { account, status };
}

/** A size parameter (`maxwidth`, `maxheight`): a positive whole number, else undefined. */
export function oembedSize(v: string | undefined): number | undefined {
  if (v === undefined || !/^[0-9]{1,6}$/.test(v.trim())) return undefined;
  const n = Number(v);
  return n > 0 ? Math.min(n, MAX_SIZE) : undefined;
}

const attr = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The oEmbed answer: an iframe of the post's embed page (`/@user/ID/embed`), `width` × `height`. */
export function oembedFor(
  ctx: AppContext,
  found: { account: Account; status: Status },
  size: { width?: number; height?: number },
): OEmbed {
  const base = ctx.config.baseUrl;
  const { account, status } = found;
  const width = size.width ?? OEMBED_DEFAULT_WIDTH;
  const height = size.height ?? null;
  const src = `${base}/@${account.username}/${status.id}/embed`;
  const dims = `width="${width}"${height === null ? "" : ` height="${height}"`}`;
  return {
    type: "rich",
    version: "1.0",
    author_name: account.displayName || account.username,
    author_url: `${base}/@${account.username}`,
    provider_name: ctx.config.localDomain,
    provider_url: `${base}/`,
    cache_age: 86_400,
    html: `<iframe src="${attr(src)}" class="mastodon-embed" style="max-width: 100%; border: 0" ${dims} allowfullscreen="allowfullscreen"></iframe>`,
    width,
    height,
  };
}
