import type { Context } from "@fedify/fedify";
import type { Activity } from "@fedify/vocab";
import type { AppContext } from "../context.ts";
import type { Account } from "../db/repositories/accounts.ts";
import type { RemoteInbox } from "../db/repositories/delivery.ts";
import type { Status } from "../db/repositories/statuses.ts";
import type { Delivery } from "./deliveries.ts";
import type * as Outbox from "./outbox/index.ts";
import { planQuoteDelivery } from "./quote-plans.ts";

/**
 * What one delivery job sends: who signs, to whom, and how to build the activities. Planning
 * reads only the database; `build` runs (with Fedify loaded) only when there are recipients.
 */
export interface DeliveryPlan {
  /** The local account that signs; null for the instance actor (forwarded reports). */
  sender: Account | null;
  recipients: RemoteInbox[];
  build(fctx: Context<AppContext>, out: typeof Outbox): Promise<Activity[]>;
}

type Planner<D extends Delivery> = (ctx: AppContext, d: D) => Promise<DeliveryPlan | undefined>;

async function localAccount(ctx: AppContext, id: string): Promise<Account | undefined> {
  const account = await ctx.repos.accounts.getById(id);
  return account && account.domain === null ? account : undefined;
}

/** A post's recipients by visibility, as Mastodon's StatusReachFinder. */
async function statusRecipients(ctx: AppContext, status: Status, withInteractors: boolean): Promise<RemoteInbox[]> {
  const d = ctx.repos.delivery;
  const mentioned = await d.remoteMentioned(status.id);
  if (status.visibility === "direct") return mentioned;
  const parts = [mentioned, await d.remoteFollowers(status.accountId)];
  if (status.inReplyToAccountId !== null) parts.push(await d.remoteAccounts([status.inReplyToAccountId]));
  // The quoted author's server learns of the quote and of its stamp (Mastodon reaches it too).
  const quote = await ctx.repos.quotes.byQuotingStatus(status.id);
  if (quote?.quotedAccountId) parts.push(await d.remoteAccounts([quote.quotedAccountId]));
  if (withInteractors && (status.visibility === "public" || status.visibility === "unlisted")) {
    parts.push(await d.remoteInteractors(status.id));
  }
  return parts.flat();
}

const statusPlan: Planner<Extract<Delivery, { statusId: string; type: `status.${string}` }>> = async (ctx, d) => {
  const status = await ctx.repos.statuses.getById(d.statusId);
  if (!status?.local || status.reblogOfId !== null) return undefined;
  // A post deleted before its Create went out is never announced; its Delete still is.
  if (d.type !== "status.delete" && status.deletedAt !== null) return undefined;
  const sender = await localAccount(ctx, status.accountId);
  if (!sender) return undefined;
  const recipients = await statusRecipients(ctx, status, d.type !== "status.create");
  const kind = d.type === "status.create" ? "create" : d.type === "status.update" ? "update" : "delete";
  return {
    sender,
    recipients,
    build: async (fctx, out) => {
      const activity = await out.statusActivity(fctx, kind, status, d.type === "status.update" ? d.at : undefined);
      return activity ? [activity] : [];
    },
  };
};

const announcePlan: Planner<Extract<Delivery, { type: "announce" | "announce.undo" }>> = async (ctx, d) => {
  const boost = await ctx.repos.statuses.getById(d.statusId);
  if (!boost || boost.reblogOfId === null || !boost.local) return undefined;
  if (d.type === "announce" && boost.deletedAt !== null) return undefined;
  const original = await ctx.repos.statuses.getById(boost.reblogOfId);
  const sender = await localAccount(ctx, boost.accountId);
  if (!original || !sender) return undefined;
  const author = await ctx.repos.accounts.getById(original.accountId);
  if (!author) return undefined;
  const recipients = [
    ...(await ctx.repos.delivery.remoteFollowers(sender.id)),
    ...(await ctx.repos.delivery.remoteAccounts([author.id])),
  ];
  return {
    sender,
    recipients,
    build: async (fctx, out) => {
      const announce = out.announce(fctx, sender, boost, original, author);
      return [d.type === "announce" ? announce : out.undo(fctx, sender, announce, `${boost.uri}/undo`)];
    },
  };
};

const likePlan: Planner<Extract<Delivery, { type: "like" | "like.undo" }>> = async (ctx, d) => {
  const sender = await localAccount(ctx, d.accountId);
  const status = await ctx.repos.statuses.getById(d.statusId);
  if (!sender || !status) return undefined;
  const recipients = await ctx.repos.delivery.remoteAccounts([status.accountId]);
  return {
    sender,
    recipients,
    build: async (fctx, out) => {
      const like = out.like(fctx, sender, status, d.likeId);
      return [d.type === "like" ? like : out.undo(fctx, sender, like, `${sender.uri}#likes/${d.likeId}/undo`)];
    },
  };
};

const pollVotePlan: Planner<Extract<Delivery, { type: "poll.vote" }>> = async (ctx, d) => {
  const sender = await localAccount(ctx, d.accountId);
  const poll = await ctx.repos.polls.getById(d.pollId);
  if (!sender || !poll) return undefined;
  const [status, author] = await Promise.all([
    ctx.repos.statuses.getById(poll.statusId),
    ctx.repos.accounts.getById(poll.accountId),
  ]);
  if (!status || !author) return undefined;
  const recipients = await ctx.repos.delivery.remoteAccounts([author.id]);
  return {
    sender,
    recipients,
    build: async (fctx, out) =>
      d.votes
        .filter((v) => poll.options[v.choice] !== undefined)
        .map((v) => out.pollVote(fctx, sender, status, author, v.id, poll.options[v.choice] ?? "")),
  };
};

/** Follow, Block and their Undo: from a local account to one remote account. */
const pairPlan: Planner<Extract<Delivery, { type: "follow" | "follow.undo" | "block" | "block.undo" }>> = async (
  ctx,
  d,
) => {
  const sender = await localAccount(ctx, d.accountId);
  const target = await ctx.repos.accounts.getById(d.targetId);
  if (!sender || !target || target.domain === null) return undefined;
  const recipients = await ctx.repos.delivery.remoteAccounts([target.id]);
  return {
    sender,
    recipients,
    build: async (fctx, out) => {
      const kind = d.type.startsWith("follow") ? "follow" : "block";
      const activity =
        kind === "follow" ? out.follow(fctx, sender, target, d.uri) : out.block(fctx, sender, target, d.uri);
      return [d.type.endsWith(".undo") ? out.undo(fctx, sender, activity, `${d.uri}/undo`, target) : activity];
    },
  };
};

const answerPlan: Planner<Extract<Delivery, { type: "follow.accept" | "follow.reject" }>> = async (ctx, d) => {
  const sender = await localAccount(ctx, d.accountId);
  const follower = await ctx.repos.accounts.getById(d.followerId);
  if (!sender || !follower || follower.domain === null) return undefined;
  const recipients = await ctx.repos.delivery.remoteAccounts([follower.id]);
  return {
    sender,
    recipients,
    build: async (fctx, out) => [out.answerFollow(fctx, d.type === "follow.accept", sender, follower, d.uri)],
  };
};

const flagPlan: Planner<Extract<Delivery, { type: "flag" }>> = async (ctx, d) => {
  const report = await ctx.repos.reports.getById(d.reportId);
  if (!report) return undefined;
  const target = await ctx.repos.accounts.getById(report.targetAccountId);
  if (!target || target.domain === null) return undefined;
  const statuses = (await ctx.repos.statuses.getByIds(report.statusIds)).filter((s) => s.accountId === target.id);
  const recipients = await ctx.repos.delivery.remoteAccounts([target.id]);
  return {
    sender: null,
    recipients,
    build: async (fctx, out) => [out.flag(fctx, report, target, statuses)],
  };
};

/** Activities about the account itself, sent to all its remote followers. */
const accountPlan: Planner<
  Extract<Delivery, { type: "actor.update" | "featured.add" | "featured.remove" | "move" } | { tag: string }>
> = async (ctx, d) => {
  const sender = await localAccount(ctx, d.accountId);
  if (!sender) return undefined;
  let status: Status | undefined;
  if (d.type === "featured.add" || d.type === "featured.remove") {
    status = await ctx.repos.statuses.getById(d.statusId);
    if (!status) return undefined;
  }
  const recipients = await ctx.repos.delivery.remoteFollowers(sender.id);
  return {
    sender,
    recipients,
    build: async (fctx, out) => {
      switch (d.type) {
        case "actor.update": {
          const update = await out.updateActor(fctx, sender);
          return update ? [update] : [];
        }
        case "featured.add":
        case "featured.remove":
          return status ? [out.featuredChange(fctx, d.type === "featured.add", sender, status)] : [];
        case "featured-tag.add":
        case "featured-tag.remove":
          return [out.featuredTagChange(fctx, d.type === "featured-tag.add", sender, d.tag)];
        case "move":
          return [out.move(fctx, sender, d.targetUri)];
      }
    },
  };
};

/** A deleted local account's `Delete` of itself, to every server known here. */
const actorDeletePlan: Planner<Extract<Delivery, { type: "actor.delete" }>> = async (ctx, d) => {
  const sender = await localAccount(ctx, d.accountId);
  if (sender?.suspensionOrigin !== "deleted") return undefined;
  return {
    sender,
    recipients: await ctx.repos.delivery.knownInboxes(),
    build: async (fctx, out) => [out.deleteActor(fctx, sender)],
  };
};

/** The plan of one delivery, or undefined when there is nothing to send (gone, or not ours). */
export function planDelivery(ctx: AppContext, d: Delivery): Promise<DeliveryPlan | undefined> {
  switch (d.type) {
    case "status.create":
    case "status.update":
    case "status.delete":
      return statusPlan(ctx, d);
    case "announce":
    case "announce.undo":
      return announcePlan(ctx, d);
    case "like":
    case "like.undo":
      return likePlan(ctx, d);
    case "poll.vote":
      return pollVotePlan(ctx, d);
    case "follow":
    case "follow.undo":
    case "block":
    case "block.undo":
      return pairPlan(ctx, d);
    case "follow.accept":
    case "follow.reject":
      return answerPlan(ctx, d);
    case "flag":
      return flagPlan(ctx, d);
    case "actor.update":
    case "featured.add":
    case "featured.remove":
    case "featured-tag.add":
    case "featured-tag.remove":
    case "move":
      return accountPlan(ctx, d);
    case "actor.delete":
      return actorDeletePlan(ctx, d);
    case "quote.request":
    case "quote.accept":
    case "quote.reject":
    case "quote.revoke":
      return planQuoteDelivery(ctx, d);
  }
}
