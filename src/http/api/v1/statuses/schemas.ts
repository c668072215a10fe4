import { z } from "zod";
import { ApiError } from "../../../../lib/errors.ts";
import { VISIBILITIES } from "../../../../policies/statuses.ts";
import { asArray } from "../../../params.ts";
import { boolish } from "../../../validate.ts";

/** Optional parameter: clients send "" or null for "not given". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

/** Text given as a string (JSON numbers are stringified). */
const str = z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().max(100_000));

export const visibility = z.enum(VISIBILITIES as [string, ...string[]], {
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
});

export const editStatusSchema = z.object({
  status: optional(str),
  spoiler_text: optional(z.preprocess((v) => (v === null ? "" : v), str)),
  sensitive: optional(boolish),
  language: optional(str),
  media_ids: z.unknown().optional(),
  poll: z.unknown().optional(),
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
