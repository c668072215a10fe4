import { z } from "zod";
import { updateSchema as scheduledUpdateSchema } from "../../api/v1/scheduled-statuses/routes.ts";
import {
  accountStatusesSchema,
  createStatusSchema,
  deleteSchema,
  editStatusSchema,
  reblogSchema,
} from "../../api/v1/statuses/schemas.ts";
import { arrayOf, intish } from "../../validate.ts";
import type { DocArea } from "../types.ts";
import { d, EMPTY, ids, pageOf } from "./common.ts";

/** What `media_ids` and `poll` take (the route checks them by hand: mediaIdsOf, pollOf). */
const mediaIds = arrayOf(z.string()).optional().describe("Attached media, as `media_ids[]`; up to 4");
const poll = z
  .object({
    options: z.array(z.string()).describe("The choices, as `poll[options][]`"),
    expires_in: intish.describe("Seconds until the poll closes"),
    multiple: z.boolean().optional(),
    hide_totals: z.boolean().optional(),
  })
  .optional()
  .describe("A poll instead of media");
const allowedMentions = arrayOf(z.string()).optional().describe("Only these accounts may be mentioned");

const createBody = createStatusSchema.extend({ media_ids: mediaIds, poll, allowed_mentions: allowedMentions });
const editBody = editStatusSchema.extend({ media_ids: mediaIds, poll });

const upload = z.object({
  file: z.string().describe("The file (image, video or audio)").meta({ contentMediaType: "application/octet-stream" }),
  thumbnail: z.string().optional().meta({ contentMediaType: "image/*" }),
  description: z.string().max(1500).optional().describe("Alt text"),
  focus: z.string().optional().describe("Focal point: two floats `x,y` in -1..1"),
});
const mediaUpdate = upload.omit({ file: true });
const votes = z.object({ choices: arrayOf(intish).describe("Indexes of the options voted for") });
const tagged = { pathDescriptions: { name: "A hashtag, without `#`" } };

const status = "Status";
const posted = {
  schema: { oneOf: [{ $ref: "#/components/schemas/Status" }, { $ref: "#/components/schemas/ScheduledStatus" }] },
  description: "The status, or the scheduled status when `scheduled_at` was given",
};
const action = (summary: string) => d(summary, status, { errors: [404] });

/** Statuses, their actions and lists, polls, scheduled statuses, media. */
export const statusDocs: DocArea = {
  tag: "Statuses",
  description: "Posting, reading and acting on statuses; polls, scheduled statuses, media",
  routes: {
    "POST /api/v1/statuses": d("Post a status", posted, {
      description:
        "With `scheduled_at` (more than 5 minutes ahead, else 422), answers a ScheduledStatus instead. `Idempotency-Key` makes retries safe.",
      body: createBody,
      answers: { 429: "Error" },
    }),
    "GET /api/v1/statuses": d("Statuses by id", "Status[]", { query: ids }),
    "GET /api/v1/statuses/:id{[0-9]+}": d("One status", status, { answers: { 410: "Error" } }),
    "DELETE /api/v1/statuses/:id{[0-9]+}": d("Delete a status", status, {
      description: "Answers the deleted status with `text` (for redrafting).",
      query: deleteSchema,
    }),
    "PUT /api/v1/statuses/:id{[0-9]+}": d("Edit a status", status, { body: editBody }),
    "GET /api/v1/statuses/:id{[0-9]+}/context": d("Ancestors and descendants of a status", "Context"),
    "GET /api/v1/statuses/:id{[0-9]+}/card": d("The preview card of a status", {
      schema: { oneOf: [{ $ref: "#/components/schemas/PreviewCard" }, { type: "object", maxProperties: 0 }] },
      description: "A PreviewCard, or `{}` when there is none",
    }),
    "GET /api/v1/statuses/:id{[0-9]+}/history": d("Edit history of a status", "StatusEdit[]"),
    "GET /api/v1/statuses/:id{[0-9]+}/source": d("Plain source of a status, for editing", "StatusSource"),
    "POST /api/v1/statuses/:id{[0-9]+}/favourite": action("Favourite a status"),
    "POST /api/v1/statuses/:id{[0-9]+}/unfavourite": action("Undo a favourite"),
    "POST /api/v1/statuses/:id{[0-9]+}/bookmark": action("Bookmark a status"),
    "POST /api/v1/statuses/:id{[0-9]+}/unbookmark": action("Remove a bookmark"),
    "POST /api/v1/statuses/:id{[0-9]+}/mute": action("Mute notifications of a thread"),
    "POST /api/v1/statuses/:id{[0-9]+}/unmute": action("Unmute a thread"),
    "POST /api/v1/statuses/:id{[0-9]+}/pin": action("Pin a status to the profile"),
    "POST /api/v1/statuses/:id{[0-9]+}/unpin": action("Unpin a status"),
    "POST /api/v1/statuses/:id{[0-9]+}/reblog": d("Boost a status", status, { body: reblogSchema }),
    "POST /api/v1/statuses/:id{[0-9]+}/unreblog": action("Undo a boost"),
    "GET /api/v1/statuses/:id{[0-9]+}/favourited_by": pageOf("Who favourited a status", "Account", 40, 80),
    "GET /api/v1/statuses/:id{[0-9]+}/reblogged_by": pageOf("Who boosted a status", "Account", 40, 80),
    "GET /api/v1/accounts/:id{[0-9]+}/statuses": pageOf("Statuses of an account", status, 20, 40, {
      query: accountStatusesSchema,
      tags: ["Accounts"],
    }),
    "GET /api/v1/favourites": pageOf("Statuses the user favourited", status),
    "GET /api/v1/bookmarks": pageOf("Statuses the user bookmarked", status),
    "GET /api/v1/tags/:name": d("A hashtag", "Tag", { ...tagged, tags: ["Tags"] }),
    "POST /api/v1/media": d("Upload media (processed before answering)", "MediaAttachment", {
      body: upload,
      multipart: true,
      tags: ["Media"],
    }),
    "POST /api/v2/media": d("Upload media", "MediaAttachment", {
      description: "200 when processed, 202 while it is processed in the background (`url` is null until then).",
      body: upload,
      multipart: true,
      answers: { 202: "MediaAttachment" },
      tags: ["Media"],
    }),
    "GET /api/v1/media/:id{[0-9]+}": d("An uploaded attachment", "MediaAttachment", {
      description: "206 while it is still processed.",
      answers: { 206: "MediaAttachment" },
      tags: ["Media"],
    }),
    "PUT /api/v1/media/:id{[0-9]+}": d("Update an attachment not yet posted", "MediaAttachment", {
      body: mediaUpdate,
      multipart: true,
      tags: ["Media"],
    }),
    "DELETE /api/v1/media/:id{[0-9]+}": d("Delete an attachment not yet posted", EMPTY, { tags: ["Media"] }),
    "GET /api/v1/polls/:id{[0-9]+}": d("A poll", "Poll"),
    "POST /api/v1/polls/:id{[0-9]+}/votes": d("Vote in a poll", "Poll", { body: votes }),
    "GET /api/v1/scheduled_statuses": pageOf("Scheduled statuses", "ScheduledStatus"),
    "GET /api/v1/scheduled_statuses/:id": d("A scheduled status", "ScheduledStatus"),
    "PUT /api/v1/scheduled_statuses/:id": d("Move a scheduled status", "ScheduledStatus", {
      body: scheduledUpdateSchema,
    }),
    "DELETE /api/v1/scheduled_statuses/:id": d("Cancel a scheduled status", EMPTY),
  },
};
