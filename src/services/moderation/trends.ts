import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Publisher } from "../../db/repositories/trend-review.ts";
import type { DB } from "../../db/schema.ts";
import { notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { statusesJson } from "../statuses/views.ts";
import { refreshAllowed } from "../trends/allowed.ts";
import { trendLinksJson } from "../trends/lists.ts";
import { logAction, type Moderator } from "./action-log.ts";
import { adminTagsJson } from "./tags.ts";

export type { Publisher };

/** approve: may trend; reject: may not. */
export type Decision = "approve" | "reject";

const verb = (d: Decision) => (d === "approve" ? "approved" : "rejected");

/**
 * `GET /api/v1/admin/trends/tags`: every scored hashtag, allowed or not, best first, as
 * Mastodon's Admin::Tag (Tag with history, `trendable`, `usable`, `requires_review`).
 */
export async function tagCandidatesJson(
  ctx: AppContext,
  viewerId: string,
  limit: number,
  offset: number,
): Promise<Record<string, unknown>[]> {
  const order = await ctx.repos.trendReview.tagCandidates(limit, offset);
  const byId = new Map((await ctx.repos.adminTags.byIds(order.map((c) => c.id))).map((t) => [t.id, t]));
  const tags = order.flatMap((c) => byId.get(c.id) ?? []);
  return adminTagsJson(ctx, tags, viewerId);
}

/**
 * `GET /api/v1/admin/trends/statuses`: every scored post, allowed or not, best first, as
 * Mastodon's Admin::Trends::Status (the Status and `requires_review`: no decision yet).
 */
export async function statusCandidatesJson(
  ctx: AppContext,
  viewerId: string,
  limit: number,
  offset: number,
): Promise<Record<string, unknown>[]> {
  const order = await ctx.repos.trendReview.statusCandidates(limit, offset);
  const byId = new Map((await ctx.repos.statuses.getByIds(order.map((c) => c.id))).map((s) => [s.id, s]));
  const statuses = order.flatMap((c) => byId.get(c.id) ?? []);
  const json = await statusesJson(ctx, statuses, viewerId);
  const review = new Map(order.map((c) => [c.id, c.trendable === null]));
  return json.map((s) => ({ ...s, requires_review: review.get(String(s.id)) ?? false }));
}

/**
 * Admin::Trends::Link entities of cards (Trends::Link: the PreviewCard and its history; plus
 * `id`, and `requires_review`: neither the link nor its publisher decided on), in `ids`' order.
 */
async function linksJson(ctx: AppContext, ids: readonly string[]): Promise<Record<string, unknown>[]> {
  const [links, reviews] = await Promise.all([trendLinksJson(ctx, ids), ctx.repos.trendReview.linkReviews(ids)]);
  // Cards are one per URL: the URL finds each link's card.
  const byUrl = new Map([...reviews.values()].map((r) => [r.url, r]));
  return links.flatMap((link) => {
    const review = byUrl.get(String(link.url));
    if (!review) return [];
    return { ...link, id: review.id, requires_review: review.trendable === null && !review.publisherReviewed };
  });
}

/** `GET /api/v1/admin/trends/links`: every scored link, allowed or not, best first. */
export async function linkCandidatesJson(
  ctx: AppContext,
  limit: number,
  offset: number,
): Promise<Record<string, unknown>[]> {
  const order = await ctx.repos.trendReview.linkCandidates(limit, offset);
  return linksJson(
    ctx,
    order.map((c) => c.id),
  );
}

/**
 * Runs a moderator's decision: `change` and the action log entry in one transaction, then the
 * `allowed` flags of the trends are recomputed (and cached answers dropped) so that the public
 * lists follow at once.
 */
async function decide(ctx: AppContext, change: (trx: Kysely<DB>) => Promise<void>): Promise<void> {
  await ctx.db.transaction().execute(change);
  await refreshAllowed(ctx);
}

/** `POST /api/v1/admin/trends/tags/:id/{approve,reject}`: the tag's `trendable`, marked reviewed. */
export async function reviewTag(
  ctx: AppContext,
  by: Moderator,
  id: string,
  decision: Decision,
): Promise<Record<string, unknown>> {
  const tag = isId(id) ? await ctx.repos.adminTags.byId(id) : undefined;
  if (!tag) throw notFound();
  await decide(ctx, async (trx) => {
    await ctx.repos.trendReview.setTagTrendable(tag.id, decision === "approve", new Date().toISOString(), trx);
    await logAction(
      ctx,
      by,
      {
        action: decision,
        targetType: "Tag",
        targetId: tag.id,
        humanIdentifier: tag.displayName,
        summary: `${verb(decision)} the hashtag #${tag.displayName} for trends`,
      },
      trx,
    );
  });
  const updated = await ctx.repos.adminTags.byId(tag.id);
  if (!updated) throw notFound();
  const [json] = await adminTagsJson(ctx, [updated], by.accountId ?? undefined);
  return json as Record<string, unknown>;
}

/**
 * `POST /api/v1/admin/trends/statuses/:id/{approve,reject}`: the post's own `trendable`. As in
 * Mastodon's API, this decides on the post only, not on its author. Only public posts can trend,
 * so any other post is not found here (this is no way to read private posts).
 */
export async function reviewStatus(
  ctx: AppContext,
  by: Moderator,
  id: string,
  decision: Decision,
): Promise<Record<string, unknown>> {
  const status = isId(id) ? await ctx.repos.statuses.getById(id) : undefined;
  if (!status || status.deletedAt !== null || status.visibility !== "public") throw notFound();
  const author = await ctx.repos.accounts.getById(status.accountId);
  const acct = author ? (author.domain === null ? author.username : `${author.username}@${author.domain}`) : "";
  await decide(ctx, async (trx) => {
    await ctx.repos.trendReview.setStatusTrendable(status.id, decision === "approve", trx);
    await logAction(
      ctx,
      by,
      {
        action: decision,
        targetType: "Status",
        targetId: status.id,
        humanIdentifier: status.uri,
        summary: `${verb(decision)} a post by @${acct} for trends`,
      },
      trx,
    );
  });
  const [json] = await statusesJson(ctx, [status], by.accountId ?? undefined);
  if (!json) throw notFound();
  return { ...json, requires_review: false };
}

/** `POST /api/v1/admin/trends/links/:id/{approve,reject}`: the link's own `trendable`. */
export async function reviewLink(
  ctx: AppContext,
  by: Moderator,
  id: string,
  decision: Decision,
): Promise<Record<string, unknown>> {
  const url = isId(id) ? await ctx.repos.trendReview.cardUrl(id) : undefined;
  if (url === undefined) throw notFound();
  await decide(ctx, async (trx) => {
    await ctx.repos.trendReview.setCardTrendable(id, decision === "approve", new Date().toISOString(), trx);
    await logAction(
      ctx,
      by,
      {
        action: decision,
        targetType: "PreviewCard",
        targetId: id,
        humanIdentifier: url,
        summary: `${verb(decision)} the link ${url} for trends`,
      },
      trx,
    );
  });
  const [json] = await linksJson(ctx, [id]);
  if (!json) throw notFound();
  return json;
}

/**
 * Mastodon's Admin::Trends::Links::PreviewCardProvider entity; an undecided publisher's
 * `trendable` is what applies to its links (no, while links need review).
 */
export function publisherJson(ctx: AppContext, p: Publisher): Record<string, unknown> {
  return {
    id: p.id,
    domain: p.domain,
    trendable: p.trendable ?? !ctx.config.trends.review.links,
    reviewed_at: p.reviewedAt,
    requested_review_at: p.requestedReviewAt,
    requires_review: p.reviewedAt === null,
  };
}

/** `GET /api/v1/admin/trends/links/publishers`: the sites links come from, newest first. */
export function publishersPage(ctx: AppContext, window: IdWindow): Promise<Publisher[]> {
  return ctx.repos.trendReview.publishersPage(window);
}

/**
 * `POST /api/v1/admin/trends/links/publishers/:id/{approve,reject}`: the publisher's
 * `trendable`, marked reviewed; its links without a decision of their own follow it.
 */
export async function reviewPublisher(
  ctx: AppContext,
  by: Moderator,
  id: string,
  decision: Decision,
): Promise<Record<string, unknown>> {
  const publisher = isId(id) ? await ctx.repos.trendReview.publisherById(id) : undefined;
  if (!publisher) throw notFound();
  await decide(ctx, async (trx) => {
    await ctx.repos.trendReview.setPublisherTrendable(
      publisher.id,
      decision === "approve",
      new Date().toISOString(),
      trx,
    );
    await logAction(
      ctx,
      by,
      {
        action: decision,
        targetType: "PreviewCardProvider",
        targetId: publisher.id,
        humanIdentifier: publisher.domain,
        summary: `${verb(decision)} the publisher ${publisher.domain} for trends`,
      },
      trx,
    );
  });
  const updated = await ctx.repos.trendReview.publisherById(publisher.id);
  if (!updated) throw notFound();
  return publisherJson(ctx, updated);
}
