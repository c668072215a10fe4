import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { EVERYONE_ROLE_ID, Permission, roleCan } from "../../db/repositories/roles.ts";
import type { StaffRecipient } from "../../db/repositories/trend-review.ts";
import type { UserSettings } from "../../db/repositories/users.ts";

const logger = getLogger(["gannet", "trends"]);

export const TREND_REVIEW_NOTICE_TASK = "trends.review-notice";

/**
 * Mastodon asks for a review only of what would enter the public top three (its trends'
 * `review_threshold`): a candidate must score above the third allowed item.
 */
const REVIEW_THRESHOLD = 3;

/** What one run announced. */
export interface ReviewNotice {
  tags: string[];
  statuses: string[];
  links: string[];
  /** The addresses written to. */
  sentTo: string[];
}

/** Whether the user wants the trends review e-mail (Mastodon's `notification_emails.trends`, on by default). */
export function wantsTrendsMail(settingsJson: string): boolean {
  try {
    const settings = JSON.parse(settingsJson) as UserSettings | null;
    return settings?.notificationEmails?.trends !== false;
  } catch {
    return true;
  }
}

/**
 * The `trends.review-notice` task (Mastodon's Trends.request_review! and AdminMailer#new_trends):
 * finds the candidates that are not allowed, have no moderator's decision, would enter the public
 * top three and were never announced, marks them announced, and mails one digest of them to each
 * staff member whose role grants Manage Taxonomies and who has not turned the mail off. Kinds
 * whose review is off (TRENDS_REVIEW_*) are left out; nothing is sent when nothing new waits.
 * Announced items are marked before the mail goes, so a failing mail server never repeats a
 * notice, and two runs at once announce each item once.
 */
export async function noticeTrendsForReview(ctx: AppContext, now: Date = new Date()): Promise<ReviewNotice> {
  const done: ReviewNotice = { tags: [], statuses: [], links: [], sentTo: [] };
  const { enabled, review } = ctx.config.trends;
  if (!enabled) return done;
  const at = now.toISOString();
  const repo = ctx.repos.trendReview;
  if (review.tags) done.tags = await repo.claimTagsForNotice(REVIEW_THRESHOLD, at);
  if (review.statuses) done.statuses = await repo.claimStatusesForNotice(REVIEW_THRESHOLD, at);
  if (review.links) done.links = await repo.claimLinksForNotice(REVIEW_THRESHOLD, at, () => ctx.ids.next());
  if (done.tags.length + done.statuses.length + done.links.length === 0) return done;

  const recipients = (await staffWithTaxonomies(ctx)).filter((r) => wantsTrendsMail(r.settings));
  if (recipients.length === 0) return done;
  const text = await digest(ctx, done);
  const subject = `New trends up for review on ${ctx.config.localDomain}`;
  for (const r of recipients) {
    try {
      await ctx.mailer.send({ to: r.email, subject, text: `Hello @${r.username},\n\n${text}` });
      done.sentTo.push(r.email);
    } catch (error) {
      logger.error("Could not mail the trends review notice to {to}: {error}", { to: r.email, error });
    }
  }
  return done;
}

/** The local users whose role (with the everyone role's permissions) grants Manage Taxonomies. */
async function staffWithTaxonomies(ctx: AppContext): Promise<StaffRecipient[]> {
  const roles = await ctx.repos.roles.all();
  const everyone = roles.find((r) => r.id === EVERYONE_ROLE_ID);
  const ids = roles.filter((r) => roleCan(r, everyone, Permission.manageTaxonomies)).map((r) => r.id);
  return ctx.repos.trendReview.mailableStaff(ids);
}

/** The mail's body: each kind waiting, and where to review it. */
async function digest(ctx: AppContext, notice: ReviewNotice): Promise<string> {
  const base = ctx.config.baseUrl;
  const [tags, statuses, cards] = await Promise.all([
    ctx.repos.adminTags.byIds(notice.tags),
    ctx.repos.statuses.getByIds(notice.statuses),
    ctx.repos.previewCards.getByIds(notice.links),
  ]);
  const authors = new Map(
    (await ctx.repos.accounts.getByIds([...new Set(statuses.map((s) => s.accountId))])).map((a) => [
      a.id,
      a.domain === null ? a.username : `${a.username}@${a.domain}`,
    ]),
  );
  const sections: string[] = ["The following items need a review before they can be displayed publicly:"];
  const links = notice.links.flatMap((id) => cards.get(id) ?? []);
  if (links.length > 0) {
    sections.push(
      ["Trending links:", ...links.map((c) => `- ${c.title === "" ? c.url : `${c.title}: ${c.url}`}`)].join("\n"),
    );
  }
  if (tags.length > 0) sections.push(["Trending hashtags:", ...tags.map((t) => `- #${t.displayName}`)].join("\n"));
  if (statuses.length > 0) {
    sections.push(
      ["Trending posts:", ...statuses.map((s) => `- @${authors.get(s.accountId) ?? "?"}: ${s.url ?? s.uri}`)].join(
        "\n",
      ),
    );
  }
  sections.push(
    [
      "Approve or reject them through the admin API:",
      `${base}/api/v1/admin/trends/links, ${base}/api/v1/admin/trends/tags and`,
      `${base}/api/v1/admin/trends/statuses (approve or reject each; a link's publisher at`,
      `${base}/api/v1/admin/trends/links/publishers).`,
    ].join("\n"),
  );
  return `${sections.join("\n\n")}\n`;
}
