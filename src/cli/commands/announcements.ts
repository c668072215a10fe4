import type { AppContext } from "../../context.ts";
import { ApiError } from "../../lib/errors.ts";
import {
  createAnnouncement,
  deleteAnnouncement,
  publishAnnouncement,
  unpublishAnnouncement,
} from "../../services/announcements/manage.ts";
import { COMMAND_LINE } from "../../services/moderation/action-log.ts";
import type { Output } from "../output.ts";
import type { AnnouncementsCommand } from "../parse-announcements.ts";
import { CommandError } from "../usage.ts";

const yesNo = (b: boolean) => (b ? "yes" : "no");

/** The first line of a text, tabs made spaces, so each announcement stays one line. */
const firstLine = (s: string) => (s.split("\n")[0] ?? "").replaceAll("\t", " ");

export async function announcementsCreate(
  ctx: AppContext,
  cmd: Extract<AnnouncementsCommand, { kind: "announcements-create" }>,
  io: Output,
): Promise<void> {
  try {
    const a = await createAnnouncement(ctx, { ...cmd, publish: !cmd.draft }, COMMAND_LINE);
    await io.out(a.id);
  } catch (e) {
    throw e instanceof ApiError ? new CommandError(e.message) : e;
  }
}

export async function announcementsList(ctx: AppContext, io: Output): Promise<void> {
  await io.out(["id", "published", "starts at", "ends at", "all day", "text"].join("\t"));
  for (const a of await ctx.repos.announcements.listAll()) {
    await io.out(
      [a.id, yesNo(a.published), a.startsAt ?? "", a.endsAt ?? "", yesNo(a.allDay), firstLine(a.text)].join("\t"),
    );
  }
}

export async function announcementsChange(
  ctx: AppContext,
  cmd: Extract<AnnouncementsCommand, { id: string }>,
  io: Output,
): Promise<void> {
  const done =
    cmd.kind === "announcements-publish"
      ? await publishAnnouncement(ctx, cmd.id, COMMAND_LINE)
      : cmd.kind === "announcements-unpublish"
        ? await unpublishAnnouncement(ctx, cmd.id, COMMAND_LINE)
        : await deleteAnnouncement(ctx, cmd.id, COMMAND_LINE);
  if (!done) throw new CommandError(`no announcement ${cmd.id}`);
  await io.out("OK");
}
