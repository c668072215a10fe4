import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import {
  type NotificationPolicy,
  POLICY_CATEGORIES,
  type PolicyCategory,
} from "../../db/repositories/notification-requests.ts";
import { EVERYONE_ROLE_ID, Permission, roleCan } from "../../db/repositories/roles.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isSilenced } from "../../policies/moderation.ts";

/** What the policy may hold back (Mastodon's filterable notification types); the others always pass. */
export const FILTERABLE_TYPES: readonly string[] = [
  "mention",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
  "quote",
];

/** An account created less than this long ago is new (Mastodon's `NEW_ACCOUNT_THRESHOLD`). */
const NEW_ACCOUNT_MS = 30 * 86_400_000;
/** A follower of less than this long does not count as one (Mastodon's `NEW_FOLLOWER_THRESHOLD`). */
const NEW_FOLLOWER_MS = 3 * 86_400_000;

export type PolicyDecision = "accept" | "filter" | "drop";

/**
 * What the recipient's notification policy does with a notification from `sender`, as Mastodon's
 * NotifyService: only filterable types, never from a sender whose request the recipient accepted;
 * the categories that apply are an account the recipient does not follow (`for_not_following`),
 * one that does not follow the recipient or has for less than 3 days (`for_not_followers`), and,
 * when not followed, an account younger than 30 days (`for_new_accounts`), a private mention that
 * does not answer one of the recipient's (`for_private_mentions`), a silenced account
 * (`for_limited_accounts`). `drop` in any category that applies wins over `filter`. Mentions
 * from staff placed above the recipient pass (Mastodon's `from_staff?`).
 */
export async function policyDecision(
  ctx: AppContext,
  recipientId: string,
  sender: Account,
  type: string,
  status: Status | null,
  now: Date = new Date(),
): Promise<PolicyDecision> {
  if (!FILTERABLE_TYPES.includes(type)) return "accept";
  const policy = await ctx.repos.notificationRequests.policy(recipientId);
  // The default policy (and any all-accepting one) costs one lookup unless the sender is silenced.
  const holding = POLICY_CATEGORIES.filter((c) => policy[c] !== "accept");
  if (holding.every((c) => c === "for_limited_accounts") && (holding.length === 0 || !isSilenced(sender))) {
    return "accept";
  }
  const facts = await ctx.repos.notificationRequests.senderFacts(recipientId, sender.id);
  if (facts.permitted) return "accept";
  if (type === "mention" && (await fromStaff(ctx, sender, recipientId))) return "accept";
  const notFollowing = !facts.following;
  const applies: Record<PolicyCategory, () => Promise<boolean> | boolean> = {
    for_limited_accounts: () => isSilenced(sender) && notFollowing,
    for_not_following: () => notFollowing,
    for_not_followers: () =>
      facts.followerSince === null || Date.parse(facts.followerSince) > now.getTime() - NEW_FOLLOWER_MS,
    for_new_accounts: () => notFollowing && Date.parse(sender.createdAt) > now.getTime() - NEW_ACCOUNT_MS,
    for_private_mentions: async () =>
      notFollowing &&
      type === "mention" &&
      status !== null &&
      status.visibility === "direct" &&
      !(
        status.inReplyToId !== null &&
        (await ctx.repos.notificationRequests.answersRecipient(status.inReplyToId, recipientId, sender.id))
      ),
  };
  for (const action of ["drop", "filter"] as const) {
    for (const category of Object.keys(applies) as PolicyCategory[]) {
      if (policy[category] === action && (await applies[category]())) return action;
    }
  }
  return "accept";
}

/** Mastodon's moderation permissions (`UserRole::Flags::CATEGORIES[:moderation]`). */
const MODERATION = [
  Permission.viewDashboard,
  Permission.viewAuditLog,
  Permission.manageUsers,
  Permission.manageUserAccess,
  Permission.deleteUserData,
  Permission.manageReports,
  Permission.manageAppeals,
  Permission.manageFederation,
  Permission.manageBlocks,
  Permission.manageTaxonomies,
  Permission.manageInvites,
  Permission.viewFeeds,
];

/**
 * Whether a mention comes from staff the policy lets through (Mastodon's `from_staff?`): a local
 * user whose role is highlighted, grants a moderation permission and is placed above the
 * recipient's role (`bypass_block?`).
 */
async function fromStaff(ctx: AppContext, sender: Account, recipientId: string): Promise<boolean> {
  if (sender.domain !== null) return false;
  const roleIds = await ctx.repos.users.roleIdsByAccountIds([sender.id, recipientId]);
  const senderRoleId = roleIds.get(sender.id);
  if (senderRoleId === undefined) return false;
  const roles = await ctx.repos.roles.all();
  const everyone = roles.find((r) => r.id === EVERYONE_ROLE_ID);
  const senderRole = roles.find((r) => r.id === senderRoleId);
  const recipientRole = roles.find((r) => r.id === (roleIds.get(recipientId) ?? EVERYONE_ROLE_ID)) ?? everyone;
  if (!senderRole?.highlighted) return false;
  if (recipientRole !== undefined && senderRole.position <= recipientRole.position) return false;
  return MODERATION.some((p) => roleCan(senderRole, everyone, p));
}

/** The categories of a notification policy, each `accept`, `filter` or `drop`. */
export { POLICY_CATEGORIES };

/**
 * Changes some categories of an account's notification policy; the others stay.
 */
export async function updatePolicy(
  ctx: AppContext,
  accountId: string,
  changes: Partial<NotificationPolicy>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await ctx.repos.notificationRequests.updatePolicy(accountId, changes, new Date().toISOString());
}

/** Mastodon's NotificationPolicy (v2) of an account, with its summary. */
export async function policyJson(ctx: AppContext, accountId: string): Promise<Record<string, unknown>> {
  const policy: NotificationPolicy = await ctx.repos.notificationRequests.policy(accountId);
  const summary = await ctx.repos.notificationRequests.summary(accountId);
  return {
    for_not_following: policy.for_not_following,
    for_not_followers: policy.for_not_followers,
    for_new_accounts: policy.for_new_accounts,
    for_private_mentions: policy.for_private_mentions,
    for_limited_accounts: policy.for_limited_accounts,
    summary: { pending_requests_count: summary.requests, pending_notifications_count: summary.notifications },
  };
}
