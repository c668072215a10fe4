import { createHash } from "node:crypto";
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { ApiError, forbidden } from "../../lib/errors.ts";
import { htmlToText } from "../../lib/text/html-text.ts";
import type { TranslationView } from "../../serializers/translation.ts";
import { loadEmojis, statusEmojiSource } from "../custom-emojis/views.ts";
import { findVisibleStatus } from "../statuses/find.ts";
import type { ViewerId } from "../statuses/views.ts";
import {
  AUTO_DETECT,
  type LanguageMap,
  type TranslatedText,
  type TranslationBackend,
  TranslationServiceError,
} from "./backend.ts";
import { configuredBackend } from "./configured.ts";
import { contentSource, plainSource, translatedContent, translatedPlain } from "./html.ts";
import { type InFlight, sourceOf, targetOf, translationLanguages } from "./languages.ts";

const logger = getLogger(["gannet", "translation"]);

/** How long a translation is kept (Mastodon keeps one a day). */
const TRANSLATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Only what anyone may read is sent to another service (Mastodon's `distributable?`). */
const TRANSLATABLE = new Set(["public", "unlisted"]);

/** Mastodon's answers when there is no backend, and when it fails. */
const NOT_CONFIGURED = "Not Found";
const FAILURE_MESSAGES = {
  unexpected: "Service Unavailable",
  quota_exceeded: "The server-wide usage quota for the translation service has been exceeded.",
  too_many_requests: "There have been too many requests to the translation service recently.",
} as const;

/** The configured backend, speaking through the context's guarded client; 404 when there is none. */
export function requireBackend(ctx: AppContext): TranslationBackend {
  // The client is looked up at each request, not captured: it can be wrapped after start (tests).
  const backend = configuredBackend(ctx.config.translation, { fetch: (url, init) => ctx.guardedFetch(url, init) });
  if (!backend) throw new ApiError(404, NOT_CONFIGURED);
  return backend;
}

/** Runs a backend call; its failures become the API's 503, logged with the backend's reason. */
export async function viaBackend<T>(backend: TranslationBackend, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (!(e instanceof TranslationServiceError)) throw e;
    logger.warn("{provider} gave no answer: {reason}", { provider: backend.provider, reason: e.message });
    throw new ApiError(503, FAILURE_MESSAGES[e.failure]);
  }
}

/** `GET /api/v1/instance/translation_languages`: `{source: [targets]}`, `{}` without a backend. */
export async function translationLanguagesJson(ctx: AppContext, inFlight: InFlight): Promise<LanguageMap> {
  const backend = configuredBackend(ctx.config.translation, { fetch: (url, init) => ctx.guardedFetch(url, init) });
  if (!backend) return {};
  return viaBackend(backend, () => translationLanguages(ctx, backend, inFlight));
}

/** Where a text sent for translation goes back to. */
type Piece =
  | { kind: "content" }
  | { kind: "spoiler_text" }
  | { kind: "poll_option"; pollId: string }
  | { kind: "media"; id: string };

/** The post's texts, in Mastodon's order: content, content warning, poll options, media descriptions. */
async function piecesOf(ctx: AppContext, status: Status): Promise<{ pieces: Piece[]; texts: string[] }> {
  const [author, poll, media] = await Promise.all([
    ctx.repos.accounts.getById(status.accountId),
    status.pollId === null ? undefined : ctx.repos.polls.getById(status.pollId),
    ctx.repos.media.listByStatuses([status.id]),
  ]);
  const [emojis = []] = await loadEmojis(ctx, [statusEmojiSource(status, author, poll?.options)]);
  const shortcodes = new Set(emojis.map((e) => e.shortcode));
  const pieces: Piece[] = [];
  const texts: string[] = [];
  const add = (piece: Piece, text: string) => {
    pieces.push(piece);
    texts.push(text);
  };
  // Content without any text (an empty paragraph) is nothing to translate.
  if (htmlToText(status.content) !== "") add({ kind: "content" }, contentSource(status.content, shortcodes));
  if (status.spoilerText.trim() !== "") add({ kind: "spoiler_text" }, plainSource(status.spoilerText, shortcodes));
  if (poll)
    for (const option of poll.options) add({ kind: "poll_option", pollId: poll.id }, plainSource(option, shortcodes));
  for (const m of media) if (m.description?.trim()) add({ kind: "media", id: m.id }, plainSource(m.description));
  return { pieces, texts };
}

/** The answers put back where their texts came from. */
function assemble(pieces: readonly Piece[], answers: readonly TranslatedText[], language: string, provider: string) {
  const view: TranslationView = {
    detectedSourceLanguage: answers[0]?.detectedSourceLanguage ?? AUTO_DETECT,
    language,
    provider,
    spoilerText: "",
    content: "",
    poll: null,
    mediaAttachments: [],
  };
  pieces.forEach((piece, i) => {
    const text = answers[i]?.text ?? "";
    switch (piece.kind) {
      case "content":
        view.content = translatedContent(text);
        break;
      case "spoiler_text":
        view.spoilerText = translatedPlain(text);
        break;
      case "poll_option":
        view.poll ??= { id: piece.pollId, options: [] };
        view.poll.options.push({ title: translatedPlain(text) });
        break;
      case "media":
        view.mediaAttachments.push({ id: piece.id, description: translatedPlain(text) });
        break;
    }
  });
  return view;
}

/**
 * The stored translation's key: the post and its edit (a new edit is translated afresh), the
 * target, the backend, and the texts themselves (so a change without an edit, a moderator's
 * or a remote update, is never answered with an old translation).
 */
function cacheKey(status: Status, backend: TranslationBackend, source: string, target: string, texts: string[]) {
  const digest = createHash("sha256")
    .update(JSON.stringify([source, texts]))
    .digest("base64url")
    .slice(0, 22);
  return `translation:status:${status.id}:${status.editedAt ?? ""}:${target}:${backend.cacheId}:${digest}`;
}

function readCached(stored: string | undefined): TranslationView | undefined {
  if (stored === undefined) return undefined;
  try {
    const v = JSON.parse(stored) as TranslationView;
    return typeof v?.content === "string" && Array.isArray(v.mediaAttachments) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `POST /api/v1/statuses/:id/translate`, in Mastodon's order of checks: a post the viewer may not
 * see is 404, no backend 404, a post that may not be sent to the backend 403 (not public or
 * unlisted, its language not translatable into the target, the target its own language, nothing
 * to translate); every text of the post goes in one request, and the result is kept for a day.
 */
export async function translateStatus(
  ctx: AppContext,
  input: { statusId: string; viewerId: ViewerId; target: string },
  inFlight: InFlight,
): Promise<TranslationView> {
  let status = await findVisibleStatus(ctx, input.statusId, input.viewerId);
  // A boost has no text of its own: what is read is the boosted post.
  if (status.reblogOfId !== null) status = await findVisibleStatus(ctx, status.reblogOfId, input.viewerId);
  const backend = requireBackend(ctx);
  const languages = await viaBackend(backend, () => translationLanguages(ctx, backend, inFlight));
  if (!TRANSLATABLE.has(status.visibility)) throw forbidden();
  const source = sourceOf(languages, status.language);
  const target = source === undefined ? undefined : targetOf(languages[source] ?? [], input.target);
  if (source === undefined || target === undefined) throw forbidden();
  const { pieces, texts } = await piecesOf(ctx, status);
  if (texts.length === 0) throw forbidden();

  const key = cacheKey(status, backend, source, target, texts);
  const now = Date.now();
  const cached = readCached(await ctx.repos.kv.get(key, new Date(now).toISOString()));
  if (cached) return cached;
  const answers = await viaBackend(backend, () =>
    backend.translate(texts, source === AUTO_DETECT ? null : source, target),
  );
  const view = assemble(pieces, answers, target, backend.provider);
  if (view.detectedSourceLanguage === AUTO_DETECT && source !== AUTO_DETECT) view.detectedSourceLanguage = source;
  await ctx.repos.kv.set(key, JSON.stringify(view), new Date(now + TRANSLATION_TTL_MS).toISOString());
  return view;
}
