import type { AppContext } from "../../context.ts";
import type { Announcement } from "../../db/repositories/announcements.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError } from "../../lib/errors.ts";
import { COMMAND_LINE, logAction, type Moderator } from "../moderation/action-log.ts";
import { ANNOUNCEMENT_PUBLISH_JOB, ANNOUNCEMENT_UNPUBLISH_JOB } from "./events.ts";

/**
 * Mastodon has no REST API for these: the `gannet announcements` command calls them. Each change
 * is written to the action log (Mastodon's `create`, `publish`, `unpublish`, `destroy` on the
 * `Announcement`) in its transaction.
 */

/** An announcement is named by the start of its text in the log, as Mastodon's human identifier. */
function logged(action: string, a: { id: string; text: string }, verb: string) {
  const text = a.text.replace(/\s+/g, " ").trim();
  const name = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  return {
    action,
    targetType: "Announcement",
    targetId: a.id,
    humanIdentifier: name,
    summary: `${verb} the announcement "${name}"`,
  };
}

export interface NewAnnouncement {
  text: string;
  startsAt: string | null;
  endsAt: string | null;
  allDay: boolean;
  /** false: kept as a draft until `publishAnnouncement`. */
  publish: boolean;
}

/** Mastodon's rules: a text, and a start and an end together or neither. */
function check(a: Pick<NewAnnouncement, "text" | "startsAt" | "endsAt">): void {
  if (a.text.trim() === "") throw new ApiError(422, "Validation failed: Text can't be blank");
  if ((a.startsAt === null) !== (a.endsAt === null)) {
    throw new ApiError(
      422,
      a.startsAt === null ? "Validation failed: Starts at can't be blank" : "Validation failed: Ends at can't be blank",
    );
  }
  if (a.startsAt !== null && a.endsAt !== null && a.endsAt < a.startsAt) {
    throw new ApiError(422, "Validation failed: Ends at must not be before starts at");
  }
}

export async function createAnnouncement(
  ctx: AppContext,
  input: NewAnnouncement,
  by: Moderator = COMMAND_LINE,
): Promise<Announcement> {
  check(input);
  const id = ctx.ids.next();
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.announcements.insert({ id, ...input }, input.publish, new Date().toISOString(), trx);
    await logAction(ctx, by, logged("create", { id, text: input.text }, "created"), trx);
    if (input.publish) jobs.add(ANNOUNCEMENT_PUBLISH_JOB, { id });
  });
  return (await ctx.repos.announcements.get(id)) as Announcement;
}

/** Publishes a draft (or sends a published one to streaming clients again). */
export async function publishAnnouncement(
  ctx: AppContext,
  id: string,
  by: Moderator = COMMAND_LINE,
): Promise<Announcement | undefined> {
  return transactionWithJobs(ctx, async (trx, jobs) => {
    const a = await ctx.repos.announcements.get(id, trx);
    if (!a) return undefined;
    const at = new Date().toISOString();
    if (!a.published)
      await ctx.repos.announcements.update(id, { published: true, publishedAt: at, scheduledAt: null }, at, trx);
    await logAction(ctx, by, logged("publish", a, "published"), trx);
    jobs.add(ANNOUNCEMENT_PUBLISH_JOB, { id });
    return ctx.repos.announcements.get(id, trx);
  });
}

/** Takes an announcement back to a draft: clients are told it is gone. */
export async function unpublishAnnouncement(
  ctx: AppContext,
  id: string,
  by: Moderator = COMMAND_LINE,
): Promise<Announcement | undefined> {
  return transactionWithJobs(ctx, async (trx, jobs) => {
    const a = await ctx.repos.announcements.get(id, trx);
    if (!a) return undefined;
    if (a.published) {
      const at = new Date().toISOString();
      await ctx.repos.announcements.update(id, { published: false, scheduledAt: null }, at, trx);
      await logAction(ctx, by, logged("unpublish", a, "unpublished"), trx);
      jobs.add(ANNOUNCEMENT_UNPUBLISH_JOB, { id });
    }
    return ctx.repos.announcements.get(id, trx);
  });
}

/**
 * Deletes an announcement with its reactions and dismissals. Streaming clients get
 * `announcement.delete` only, never a reaction event for the reactions that went with it.
 */
export async function deleteAnnouncement(ctx: AppContext, id: string, by: Moderator = COMMAND_LINE): Promise<boolean> {
  return transactionWithJobs(ctx, async (trx, jobs) => {
    const a = await ctx.repos.announcements.get(id, trx);
    if (!a) return false;
    await ctx.repos.announcements.delete(id, trx);
    await logAction(ctx, by, logged("destroy", a, "deleted"), trx);
    if (a.published) jobs.add(ANNOUNCEMENT_UNPUBLISH_JOB, { id });
    return true;
  });
}
