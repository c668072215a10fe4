import { type Command, parseStrict } from "./parse-command.ts";
import { UsageError } from "./usage.ts";

/** `gannet announcements ...` (Mastodon makes them in its admin pages; it has no API for them). */
export type AnnouncementsCommand =
  | {
      kind: "announcements-create";
      text: string;
      startsAt: string | null;
      endsAt: string | null;
      allDay: boolean;
      draft: boolean;
    }
  | { kind: "announcements-list" }
  | { kind: "announcements-publish" | "announcements-unpublish" | "announcements-delete"; id: string };

export const ANNOUNCEMENTS_CREATE_USAGE = `Usage: gannet announcements create --text TEXT [--starts-at TIME --ends-at TIME] [--all-day]
                                    [--draft]

Creates an announcement, published at once unless --draft, and prints its id. Signed-in users
see it in their apps (GET /api/v1/announcements) and streaming clients get it at once.
  --text TEXT       the text (required); links, #hashtags, @mentions and :custom_emoji: work
  --starts-at TIME  when the event it announces starts (with --ends-at): 2026-05-01 or
                    2026-05-01T18:00:00Z
  --ends-at TIME    when it ends
  --all-day         the times are whole days
  --draft           keep it unpublished until "gannet announcements publish ID"
`;

export const ANNOUNCEMENTS_LIST_USAGE = `Usage: gannet announcements list

Prints one tab-separated line per announcement, newest first, after a header line: id,
published (yes or no), starts at, ends at, all day (yes or no), the first line of the text.
`;

export const ANNOUNCEMENTS_PUBLISH_USAGE = `Usage: gannet announcements publish ID

Publishes a draft announcement (again for a published one: streaming clients get it anew) and
prints OK.
`;

export const ANNOUNCEMENTS_UNPUBLISH_USAGE = `Usage: gannet announcements unpublish ID

Takes an announcement back to a draft (users no longer see it) and prints OK.
`;

export const ANNOUNCEMENTS_DELETE_USAGE = `Usage: gannet announcements delete ID

Deletes an announcement with its reactions and prints OK. Streaming clients are told it is gone.
`;

export const ANNOUNCEMENTS_USAGE = `Usage: gannet announcements create --text TEXT [--starts-at TIME --ends-at TIME] [--all-day] [--draft]
       gannet announcements list
       gannet announcements publish ID
       gannet announcements unpublish ID
       gannet announcements delete ID

Run "gannet help announcements create" (or list, publish, unpublish, delete) for the details.
`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A day (midnight UTC) or a time with its offset, as an ISO 8601 UTC timestamp. */
function parseTime(value: string | undefined, option: string, usage: string): string | null {
  if (value === undefined) return null;
  const v = value.trim();
  const t = DATE.test(v) ? Date.parse(`${v}T00:00:00Z`) : DATE_TIME.test(v) ? Date.parse(v.replace(" ", "T")) : NaN;
  if (Number.isNaN(t)) {
    throw new UsageError(
      `--${option} must be a date (2026-05-01) or a time with its offset (2026-05-01T18:00:00Z)`,
      usage,
    );
  }
  return new Date(t).toISOString();
}

function oneId(args: string[], usage: string): string {
  const { positionals } = parseStrict(args, {}, usage);
  if (positionals.length === 0) throw new UsageError("missing ID", usage);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`, usage);
  const id = positionals[0] as string;
  if (!/^\d{1,19}$/.test(id)) throw new UsageError(`"${id}" is not an announcement id`, usage);
  return id;
}

function parseCreate(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(
    args,
    {
      text: { type: "string" },
      "starts-at": { type: "string" },
      "ends-at": { type: "string" },
      "all-day": { type: "boolean" },
      draft: { type: "boolean" },
    },
    usage,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, usage);
  const text = values.text;
  if (typeof text !== "string" || text.trim() === "") throw new UsageError("--text is required", usage);
  const startsAt = parseTime(values["starts-at"] as string | undefined, "starts-at", usage);
  const endsAt = parseTime(values["ends-at"] as string | undefined, "ends-at", usage);
  if ((startsAt === null) !== (endsAt === null)) throw new UsageError("--starts-at and --ends-at go together", usage);
  if (startsAt !== null && endsAt !== null && endsAt < startsAt) {
    throw new UsageError("--ends-at must not be before --starts-at", usage);
  }
  return {
    kind: "announcements-create",
    text,
    startsAt,
    endsAt,
    allDay: values["all-day"] === true,
    draft: values.draft === true,
  };
}

function parseList(args: string[], usage: string): Command {
  const { positionals } = parseStrict(args, {}, usage);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, usage);
  return { kind: "announcements-list" };
}

export const ANNOUNCEMENTS_SUBCOMMANDS: Record<
  string,
  { usage: string; parse: (args: string[], usage: string) => Command }
> = {
  "announcements create": { usage: ANNOUNCEMENTS_CREATE_USAGE, parse: parseCreate },
  "announcements list": { usage: ANNOUNCEMENTS_LIST_USAGE, parse: parseList },
  "announcements publish": {
    usage: ANNOUNCEMENTS_PUBLISH_USAGE,
    parse: (args, usage) => ({ kind: "announcements-publish", id: oneId(args, usage) }),
  },
  "announcements unpublish": {
    usage: ANNOUNCEMENTS_UNPUBLISH_USAGE,
    parse: (args, usage) => ({ kind: "announcements-unpublish", id: oneId(args, usage) }),
  },
  "announcements delete": {
    usage: ANNOUNCEMENTS_DELETE_USAGE,
    parse: (args, usage) => ({ kind: "announcements-delete", id: oneId(args, usage) }),
  },
};
