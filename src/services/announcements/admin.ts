import type { AppContext } from "../../context.ts";
import type { Announcement } from "../../db/repositories/announcements.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { logAction, type Moderator } from "../moderation/action-log.ts";
import { ANNOUNCEMENT_PUBLISH_JOB } from "./events.ts";

/**
 * What the moderation panel needs beyond manage.ts: every announcement (drafts too), one by id,
 * and changing one (Mastodon's `update` of an `Announcement`, logged). A published announcement
 * that changes is sent to streaming clients again, as Mastodon does.
 */

export type { Announcement };

export function listAllAnnouncements(ctx: AppContext): Promise<Announcement[]> {
  return ctx.repos.announcements.listAll();
}

/** The announcement, or a 404. */
export async function findAnnouncement(ctx: AppContext, id: string): Promise<Announcement> {
  const a = isId(id) ? await ctx.repos.announcements.get(id) : undefined;
  if (!a) throw notFound();
  return a;
}

export interface AnnouncementInput {
  text: string;
  allDay: boolean;
  startsAt: string | null;
  endsAt: string | null;
}

/**
 * Mastodon's rules for the form: a text; a start and an end together or neither; the end not
 * before the start; all-day announcements have dates only (kept as midnight UTC of each day).
 */
export function checkAnnouncement(a: AnnouncementInput): void {
  const invalid = (m: string) => new ApiError(422, `Validation failed: ${m}`);
  if (a.text.trim() === "") throw invalid("Text can't be blank");
  if ((a.startsAt === null) !== (a.endsAt === null)) {
    throw invalid(a.startsAt === null ? "Starts at can't be blank" : "Ends at can't be blank");
  }
  if (a.startsAt !== null && a.endsAt !== null && a.endsAt < a.startsAt) {
    throw invalid("Ends at must not be before starts at");
  }
  if (a.allDay && a.startsAt === null) throw invalid("An all-day announcement needs its dates");
}

export async function updateAnnouncement(
  ctx: AppContext,
  by: Moderator,
  id: string,
  input: AnnouncementInput,
): Promise<Announcement> {
  const a = await findAnnouncement(ctx, id);
  checkAnnouncement(input);
  const text = input.text.replace(/\s+/g, " ").trim();
  const name = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.announcements.update(a.id, input, new Date().toISOString(), trx);
    await logAction(
      ctx,
      by,
      {
        action: "update",
        targetType: "Announcement",
        targetId: a.id,
        humanIdentifier: name,
        summary: `changed the announcement "${name}"`,
      },
      trx,
    );
    if (a.published) jobs.add(ANNOUNCEMENT_PUBLISH_JOB, { id: a.id });
  });
  return findAnnouncement(ctx, id);
}
