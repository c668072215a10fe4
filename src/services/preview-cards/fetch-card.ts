import { randomBytes } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { PreviewCard } from "../../db/repositories/preview-cards.ts";
import type { JobBatch } from "../../infra/queue/after-commit.ts";
import { deleteKeys } from "../media/files.ts";
import { MAX_IMAGE_BYTES } from "../media/process-image.ts";
import { previewOf } from "../media/process-media.ts";
import { fetchBytes, RemoteFetchError } from "../remote/fetch-bytes.ts";
import { cardLinkOf } from "./links.ts";
import { fetchOEmbed } from "./oembed.ts";
import { type PageDetails, parsePageDetails } from "./opengraph.ts";

export const PREVIEW_CARD_JOB = "preview-cards.fetch";

/** Pages are read up to this size (their head is what matters). */
export const MAX_PAGE_BYTES = 1024 * 1024;
const PAGE_TIMEOUT_MS = 10_000;
/** A card fetched within this long is reused for another status linking to the same page. */
const CARD_FRESH_MS = 14 * 86_400_000;

interface Payload {
  statusId: string;
}

const jobOptions = (statusId: string) => ({ dedupeKey: `${PREVIEW_CARD_JOB}:${statusId}`, attempts: 2 });

/** Adds the card fetch of a new or edited local status to the jobs run after its transaction commits. */
export function addPreviewCardJob(jobs: JobBatch, statusId: string): void {
  jobs.add(PREVIEW_CARD_JOB, { statusId } satisfies Payload, jobOptions(statusId));
}

/** Queues the card fetch of a status already committed (remote statuses, when stored or updated). */
export async function queuePreviewCard(ctx: AppContext, statusId: string): Promise<void> {
  await ctx.queue.enqueue(PREVIEW_CARD_JOB, { statusId } satisfies Payload, jobOptions(statusId));
}

/**
 * Whether a remote post's HTML has a link that may get a card (not only mentions and hashtags):
 * checked before queueing, so posts without one cost no job.
 */
export function mayHaveCard(ctx: AppContext, content: string): boolean {
  return (
    cardLinkOf({ local: false, text: "", content }, { localHosts: localHosts(ctx), mentionUrls: new Set() }) !==
    undefined
  );
}

/** The hosts that are this server: links to them get no card. */
function localHosts(ctx: AppContext): string[] {
  return [new URL(ctx.config.baseUrl).host.toLowerCase(), ctx.config.localDomain.toLowerCase()];
}

function decodeHtml(bytes: Uint8Array, charset: string | undefined): string {
  const sniffed = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(
    new TextDecoder("latin1").decode(bytes.subarray(0, 2048)),
  )?.[1];
  for (const label of [charset, sniffed, "utf-8"]) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // an unknown label: try the next
    }
  }
  return new TextDecoder().decode(bytes);
}

/** The page's details, or undefined when it cannot be fetched or is not HTML. */
async function fetchPage(ctx: AppContext, url: string): Promise<PageDetails | undefined> {
  try {
    const page = await fetchBytes(ctx, url, {
      maxBytes: MAX_PAGE_BYTES,
      timeoutMs: PAGE_TIMEOUT_MS,
      accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
    });
    if (page.contentType !== "text/html" && page.contentType !== "application/xhtml+xml") return undefined;
    return parsePageDetails(decodeHtml(page.bytes, page.charset), page.url);
  } catch (e) {
    if (e instanceof RemoteFetchError) return undefined;
    throw e;
  }
}

/** The card's image, fetched and made safe (decoded, re-encoded within 640 px), or undefined. */
export async function storeCardImage(
  ctx: AppContext,
  cardId: string,
  imageUrl: string,
): Promise<{ key: string; width: number; height: number; blurhash: string } | undefined> {
  try {
    const image = await fetchBytes(ctx, imageUrl, {
      maxBytes: MAX_IMAGE_BYTES,
      timeoutMs: PAGE_TIMEOUT_MS,
      accept: "image/*",
    });
    const small = await previewOf(image.bytes);
    const key = `cache/preview_cards/images/${cardId}/${randomBytes(8).toString("hex")}.${small.file.extension}`;
    await ctx.blobs.put(key, small.file.data, small.file.contentType);
    return { key, width: small.dims.width, height: small.dims.height, blurhash: small.blurhash };
  } catch {
    // No image (unreachable, refused, not an image): the card goes without one.
    return undefined;
  }
}

/**
 * Makes or refreshes the card of a page; undefined when the page gives none (neither a title nor
 * an embed). The page's oEmbed answer, when it links one, wins over its OpenGraph tags (as
 * Mastodon prefers it): type, title, author, provider, player HTML and size, image.
 */
async function cardFor(ctx: AppContext, url: string, existing: PreviewCard | undefined) {
  const details = await fetchPage(ctx, url);
  if (!details) return existing;
  const oembed = details.oembed ? await fetchOEmbed(ctx, details.oembed) : undefined;
  const title = oembed?.title || details.title;
  if (title === "" && !oembed?.html) return existing;
  const id = existing?.id ?? ctx.ids.next();
  const imageUrl = oembed?.image ?? details.image;
  const image = imageUrl ? await storeCardImage(ctx, id, imageUrl) : undefined;
  const player = oembed?.type === "video" || oembed?.type === "rich";
  const now = new Date().toISOString();
  const fields = {
    title,
    description: details.description,
    type: oembed?.type ?? "link",
    author_name: oembed?.authorName || details.authorName,
    author_url: oembed?.authorUrl || details.authorUrl,
    provider_name: oembed?.providerName || details.siteName,
    provider_url: oembed?.providerUrl ?? "",
    html: oembed?.html ?? "",
    embed_url: oembed?.type === "photo" ? (oembed.image ?? "") : "",
    language: details.language ?? null,
    width: player ? (oembed?.width ?? 0) : (image?.width ?? 0),
    height: player ? (oembed?.height ?? 0) : (image?.height ?? 0),
    image_key: image?.key ?? null,
    image_remote_url: imageUrl ?? null,
    image_description: details.imageDescription,
    blurhash: image?.blurhash ?? null,
    published_at: details.publishedAt ?? null,
    updated_at: now,
  };
  if (existing) {
    await ctx.repos.previewCards.update(existing.id, fields);
    if (existing.imageKey && existing.imageKey !== image?.key) await deleteKeys(ctx, [existing.imageKey]);
    return ctx.repos.previewCards.getById(existing.id);
  }
  const stored = await ctx.repos.previewCards.insert({ id, url, ...fields, created_at: now });
  // Another job made the card of this page first: this one's image is not used.
  if (stored.id !== id && image) await deleteKeys(ctx, [image.key]);
  return stored;
}

/**
 * The `preview-cards.fetch` job: finds the status's card link, reuses a fresh card of that page
 * or fetches the page (through the guarded client, 1 MiB, 10 s) and its image, and shows the
 * card on the status. A status whose link went (an edit) loses its card. Failures to fetch are
 * not retried: the status simply has no card, as on Mastodon.
 */
export async function fetchPreviewCard(ctx: AppContext, payload: Payload): Promise<void> {
  if (typeof payload?.statusId !== "string") return;
  const status = await ctx.repos.statuses.getById(payload.statusId);
  if (!status || status.deletedAt !== null || status.reblogOfId !== null) return;
  const mentioned = (await ctx.repos.statuses.mentionsOf([status.id])).get(status.id) ?? [];
  const mentionUrls = new Set(
    (await ctx.repos.accounts.getByIds(mentioned)).flatMap((a) => [a.uri, ...(a.url ? [a.url] : [])]),
  );
  const link = cardLinkOf(status, { localHosts: localHosts(ctx), mentionUrls });
  if (link === undefined) {
    await ctx.repos.previewCards.unlink(status.id);
    return;
  }
  let card = await ctx.repos.previewCards.getByUrl(link);
  if (!card || Date.now() - Date.parse(card.updatedAt) > CARD_FRESH_MS) card = await cardFor(ctx, link, card);
  if (card) await ctx.repos.previewCards.link(status.id, card.id, link);
  else await ctx.repos.previewCards.unlink(status.id);
}
