import type { Context } from "@fedify/fedify";
import {
  type Article,
  Audio,
  Document,
  Emoji,
  Hashtag,
  Image,
  Link,
  Mention,
  type Note,
  Question,
  Video,
} from "@fedify/vocab";
import { LanguageString } from "@fedify/vocab-runtime";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { MediaType } from "../../db/repositories/media.ts";
import type { Visibility } from "../../db/repositories/statuses.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import { isLanguageCode } from "../../lib/text/languages.ts";
import { htmlToPlainText, sanitizeRemoteHtml } from "../../lib/text/remote-html.ts";
import { loaderOptions } from "./origin.ts";
import { pageUrlOf } from "./page-url.ts";

export type NoteLike = Note | Question | Article;

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);
const MAX_MENTIONS = 50;
const MAX_TAGS = 20;
const MAX_MEDIA = 4;
const MAX_POLL_OPTIONS = 20;
const TAG_RE = /^[\p{L}\p{M}\p{N}_\u00b7\u30fb\u200c]{1,100}$/u;

export interface MediaSpec {
  type: MediaType;
  remoteUrl: string;
  contentType: string | null;
  description: string | null;
  meta: Record<string, unknown>;
}

export interface PollSpec {
  options: string[];
  counts: number[];
  multiple: boolean;
  expiresAt: string | null;
  voters: number | null;
}

/** What a remote Note, Question or Article says, ready to store (nothing stored yet). */
export interface ReadNote {
  text: string;
  content: string;
  spoilerText: string;
  sensitive: boolean;
  language: string | null;
  url: string;
  visibility: Visibility;
  /** Accounts known here that are mentioned (`silent`: only addressed, not tagged). */
  mentions: { account: Account; silent: boolean }[];
  tags: { name: string; display: string }[];
  emojis: Emoji[];
  media: MediaSpec[];
  poll: PollSpec | null;
}

function linkHref(v: URL | Link | null): string | null {
  if (v instanceof URL) return v.href;
  if (v instanceof Link) return v.href?.href ?? null;
  return null;
}

/** The text and its language: the plain `content` first, else the first of `contentMap`. */
function contentOf(object: NoteLike): { html: string; language: string | null } {
  const all = object.contents;
  const plain = all.find((c) => !(c instanceof LanguageString));
  const tagged = all.find((c): c is LanguageString => c instanceof LanguageString);
  const language = tagged ? tagged.locale.language : null;
  const html = String(plain ?? tagged ?? object.name ?? "");
  return { html, language: language && isLanguageCode(language) ? language : null };
}

/**
 * Visibility from the audience, as Mastodon derives it: `Public` in `to` is public, in `cc`
 * unlisted; the author's followers collection is followers-only; else direct.
 */
export function visibilityOf(to: readonly URL[], cc: readonly URL[], followersUrl: string | null): Visibility {
  if (to.some((u) => PUBLIC.has(u.href))) return "public";
  if (cc.some((u) => PUBLIC.has(u.href))) return "unlisted";
  if (followersUrl !== null && [...to, ...cc].some((u) => u.href === followersUrl)) return "private";
  return "direct";
}

function mediaTypeOf(att: Document, contentType: string | null): MediaType {
  const major = contentType?.split("/")[0];
  if (major === "image") return "image";
  if (major === "video") return "video";
  if (major === "audio") return "audio";
  if (att instanceof Image) return "image";
  if (att instanceof Video) return "video";
  if (att instanceof Audio) return "audio";
  return "unknown";
}

async function readMedia(ctx: Context<AppContext>, object: NoteLike, rejectMedia: boolean): Promise<MediaSpec[]> {
  const out: MediaSpec[] = [];
  try {
    for await (const att of object.getAttachments(loaderOptions(ctx))) {
      if (out.length >= MAX_MEDIA) break;
      if (!(att instanceof Document)) continue;
      const remoteUrl = linkHref(att.url);
      if (remoteUrl === null || !/^https?:/i.test(remoteUrl)) continue;
      const contentType = att.mediaType;
      const meta: Record<string, unknown> = {};
      if (att.width && att.height) {
        meta.original = {
          width: att.width,
          height: att.height,
          size: `${att.width}x${att.height}`,
          aspect: att.width / att.height,
        };
      }
      out.push({
        // A domain whose media are rejected keeps links, never files (Mastodon's reject_media).
        type: rejectMedia ? "unknown" : mediaTypeOf(att, contentType),
        remoteUrl,
        contentType,
        description: att.name?.toString().slice(0, 1500) ?? null,
        meta,
      });
    }
  } catch {
    // Attachments that cannot be read are left out; the post is kept.
  }
  return out;
}

async function pollOptions(
  ctx: Context<AppContext>,
  iter: AsyncIterable<{ name: unknown; getReplies: Note["getReplies"] }>,
): Promise<{ options: string[]; counts: number[] }> {
  const options: string[] = [];
  const counts: number[] = [];
  for await (const opt of iter) {
    if (options.length >= MAX_POLL_OPTIONS) break;
    const title = htmlToPlainText(String(opt.name ?? ""));
    if (title === "") continue;
    const replies = await opt.getReplies(loaderOptions(ctx)).catch(() => null);
    options.push(title);
    counts.push(Math.max(0, replies?.totalItems ?? 0));
  }
  return { options, counts };
}

async function readPoll(ctx: Context<AppContext>, object: Question): Promise<PollSpec | null> {
  let read: { options: string[]; counts: number[] };
  let multiple = false;
  try {
    read = await pollOptions(ctx, object.getExclusiveOptions(loaderOptions(ctx)));
    if (read.options.length === 0) {
      read = await pollOptions(ctx, object.getInclusiveOptions(loaderOptions(ctx)));
      multiple = true;
    }
  } catch {
    return null;
  }
  if (read.options.length === 0) return null;
  const closed = object.closed;
  const end = object.endTime ?? (closed && typeof closed === "object" ? closed : null);
  const expiresAt = end
    ? new Date(end.epochMilliseconds).toISOString()
    : closed === true
      ? new Date().toISOString()
      : null;
  return { ...read, multiple, expiresAt, voters: object.voters };
}

/**
 * Reads a remote note: sanitised content, content warning, language (from `contentMap`), URL,
 * visibility from its audience, the mentioned and addressed accounts known here, hashtags, custom
 * emojis, up to four attachments and the poll of a Question.
 */
export async function readNote(
  ctx: Context<AppContext>,
  object: NoteLike,
  author: { followersUrl: string | null; rejectMedia: boolean },
): Promise<ReadNote> {
  const { html, language } = contentOf(object);
  const content = sanitizeRemoteHtml(html);
  const spoilerText = htmlToPlainText(object.summary?.toString() ?? "").slice(0, 1000);
  const mentionHrefs = new Set<string>();
  const tags = new Map<string, string>();
  const emojis: Emoji[] = [];
  try {
    for await (const tag of object.getTags(loaderOptions(ctx))) {
      if (tag instanceof Mention && tag.href && mentionHrefs.size < MAX_MENTIONS) mentionHrefs.add(tag.href.href);
      else if (tag instanceof Hashtag) {
        const name = (tag.name?.toString() ?? "").replace(/^#/, "");
        const normalized = TAG_RE.test(name) ? normalizeHashtag(name) : "";
        if (normalized !== "" && tags.size < MAX_TAGS && !tags.has(normalized)) tags.set(normalized, name);
      } else if (tag instanceof Emoji) emojis.push(tag);
    }
  } catch {
    // Tags that cannot be read are left out.
  }
  const to = object.toIds;
  const cc = object.ccIds;
  const addressed = [...to, ...cc]
    .map((u) => u.href)
    .filter((u) => !PUBLIC.has(u) && u !== author.followersUrl)
    .slice(0, MAX_MENTIONS);
  const known = await ctx.data.repos.accounts.getByUris([...new Set([...mentionHrefs, ...addressed])]);
  const mentions: ReadNote["mentions"] = [];
  for (const account of known) {
    const tagged = mentionHrefs.has(account.uri) || (account.url !== null && mentionHrefs.has(account.url));
    mentions.push({ account, silent: !tagged });
  }
  return {
    text: htmlToPlainText(content),
    content,
    spoilerText,
    sensitive: object.sensitive === true || spoilerText !== "",
    language,
    url: (object.id ? pageUrlOf(linkHref(object.url), object.id) : null) ?? object.id?.href ?? "",
    visibility: visibilityOf(to, cc, author.followersUrl),
    mentions,
    tags: [...tags].map(([name, display]) => ({ name, display })),
    emojis,
    media: await readMedia(ctx, object, author.rejectMedia),
    poll: object instanceof Question ? await readPoll(ctx, object) : null,
  };
}
