import { z } from "zod";
import { ApiError } from "../../../../lib/errors.ts";
import { VISIBILITIES } from "../../../../policies/statuses.ts";
import type { PollInput } from "../../../../services/polls/poll-input.ts";
import { asArray, asHash } from "../../../params.ts";
import { boolish } from "../../../validate.ts";

/** Optional parameter: clients send "" or null for "not given". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

/** Text given as a string (JSON numbers are stringified). */
const str = z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().max(100_000));

export const visibility = z.enum(VISIBILITIES as [string, ...string[]], {
  message: "is not included in the list",
});

/** `quote_approval_policy` (Mastodon 4.5). */
export const quoteApprovalPolicy = z.enum(["public", "followers", "nobody"], {
  message: "is not included in the list",
});

export const createStatusSchema = z.object({
  status: optional(str),
  spoiler_text: optional(str),
  sensitive: optional(boolish),
  visibility: optional(visibility),
  language: optional(str),
  in_reply_to_id: optional(str),
  media_ids: z.unknown().optional(),
  poll: z.unknown().optional(),
  scheduled_at: optional(str),
  allowed_mentions: z.unknown().optional(),
  quoted_status_id: optional(str),
  quote_approval_policy: optional(quoteApprovalPolicy),
});

export const editStatusSchema = z.object({
  // Absent keeps the text; "" (or null) is given and blank, a 422 unless media stay (Mastodon).
  status: z.preprocess((v) => (v === null ? "" : v), str.optional()),
  spoiler_text: optional(z.preprocess((v) => (v === null ? "" : v), str)),
  sensitive: optional(boolish),
  language: optional(str),
  media_ids: z.unknown().optional(),
  poll: z.unknown().optional(),
  quote_approval_policy: optional(quoteApprovalPolicy),
});

export const reblogSchema = z.object({
  visibility: optional(z.enum(["public", "unlisted", "private"], { message: "is not included in the list" })),
});

export const accountStatusesSchema = z.object({
  pinned: optional(boolish),
  exclude_replies: optional(boolish),
  exclude_reblogs: optional(boolish),
  only_media: optional(boolish),
  tagged: optional(str),
});

export const deleteSchema = z.object({ delete_media: optional(boolish) });

/** `media_ids[]` as strings (empty entries dropped); anything not a string or number is a 422. */
export function mediaIdsOf(v: unknown): string[] {
  const items = asArray(v) ?? [];
  const out: string[] = [];
  for (const x of items) {
    if (x === "" || x === null) continue;
    if (typeof x !== "string" && typeof x !== "number") {
      throw new ApiError(422, "Validation failed: media_ids is invalid");
    }
    out.push(String(x));
  }
  return out;
}

/**
 * `allowed_mentions[]`: the ids of the accounts a post may mention; undefined (no check) when
 * absent, null or "", as Mastodon. A lone value counts as a list of one, and an entry that is not
 * an id matches no account, so a malformed list refuses more, never less.
 */
export function allowedMentionsOf(v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  return (asArray(v) ?? []).flatMap((x) => (typeof x === "string" || typeof x === "number" ? [String(x).trim()] : []));
}

/** Rails' boolean cast of a poll flag (absent or blank is false). */
function flag(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return !["", "0", "f", "false", "off", "no"].includes(v.trim().toLowerCase());
  return false;
}

/** `expires_in` as Ruby's `to_i` reads it (leading digits; anything else is 0); null when absent. */
function seconds(v: unknown): number | null {
  if (v === undefined || v === null || v === "") return null;
  if (typeof v === "number") return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v === "string") {
    const m = /^\s*[+-]?\d+/.exec(v);
    return m ? Number.parseInt(m[0], 10) : 0;
  }
  return 0;
}

/**
 * `poll[options][]`, `poll[expires_in]`, `poll[multiple]`, `poll[hide_totals]` (form or JSON);
 * undefined when no poll was given (absent, an empty object, or anything but an object, which
 * Rails' `permit` drops). Limits are checked by the service (`validatePoll`); here only the
 * shape: an option that is not text is a 422.
 */
export function pollOf(v: unknown): PollInput | undefined {
  const o = asHash(v);
  if (!o || Object.keys(o).length === 0) return undefined;
  const options: string[] = [];
  for (const x of asArray(o.options) ?? []) {
    if (typeof x === "string") options.push(x);
    else if (typeof x === "number") options.push(String(x));
    else throw new ApiError(422, "Validation failed: Poll options is invalid");
  }
  return { options, expiresIn: seconds(o.expires_in), multiple: flag(o.multiple), hideTotals: flag(o.hide_totals) };
}
