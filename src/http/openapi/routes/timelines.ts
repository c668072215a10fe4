import { z } from "zod";
import { publicSchema } from "../../api/v1/timelines/routes.ts";
import { arrayOf } from "../../validate.ts";
import type { DocArea, RouteDoc } from "../types.ts";
import { bool, d, EMPTY, pageOf } from "./common.ts";

/** What the tag timeline reads by hand besides `publicSchema`. */
const tagTimeline = publicSchema.extend({
  any: arrayOf(z.string()).optional().describe("Also statuses with any of these hashtags"),
  all: arrayOf(z.string()).optional().describe("Only statuses with all of these hashtags too"),
  none: arrayOf(z.string()).optional().describe("Not statuses with any of these hashtags"),
});
/** What lists/routes.ts `listParams` and `accountIds` read by hand. */
const list = z.object({
  title: z.string().max(256),
  replies_policy: z.enum(["followed", "list", "none"]).optional(),
  exclusive: bool.describe("Hide the list's members from the home timeline"),
});
const members = z.object({ account_ids: arrayOf(z.string()) });
const markerPosition = z.object({ last_read_id: z.string() }).optional();
const markers = z.object({ home: markerPosition, notifications: markerPosition });
const markerQuery = z.object({ timeline: arrayOf(z.enum(["home", "notifications"])).optional() });
const announcementReaction = { pathDescriptions: { name: "A Unicode emoji or a custom emoji's shortcode" } };

/** Server-sent events: the stream's events as `event:`/`data:` pairs. */
const events = {
  schema: { type: "string" },
  type: "text/event-stream",
  description: "Server-sent events: `event: update|notification|delete|...` and `data:` (JSON), `:thump` every 15 s",
};
const stream = (summary: string, scopes: readonly string[], query?: z.ZodType): RouteDoc =>
  d(summary, events, { auth: "user", scopes, errors: [401, 404], tags: ["Streaming"], ...(query ? { query } : {}) });
const media = z.object({ only_media: bool });
const tag = z.object({ tag: z.string().describe("A hashtag, without `#`") });

/** Timelines, conversations, markers, lists, streaming, announcements. */
export const timelineDocs: DocArea = {
  tag: "Timelines",
  description: "Home, public, hashtag and list timelines; conversations; reading positions",
  routes: {
    "GET /api/v1/timelines/home": pageOf("The home timeline", "Status", 20, 40, {
      answers: { 206: "Status[]" },
      description: "206 while the timeline is being regenerated.",
    }),
    "GET /api/v1/timelines/public": pageOf("The public timeline", "Status", 20, 40, { query: publicSchema }),
    "GET /api/v1/timelines/tag/:hashtag": pageOf("Statuses with a hashtag", "Status", 20, 40, {
      query: tagTimeline,
      pathDescriptions: { hashtag: "A hashtag, without `#`" },
    }),
    "GET /api/v1/timelines/list/:list_id{[0-9]+}": pageOf("A list's timeline", "Status"),
    "GET /api/v1/conversations": pageOf("Direct conversations", "Conversation", 20, 40, { tags: ["Conversations"] }),
    "DELETE /api/v1/conversations/:id{[0-9]+}": d("Remove a conversation", EMPTY, { tags: ["Conversations"] }),
    "POST /api/v1/conversations/:id{[0-9]+}/read": d("Mark a conversation read", "Conversation", {
      tags: ["Conversations"],
    }),
    "POST /api/v1/conversations/:id{[0-9]+}/unread": d("Mark a conversation unread", "Conversation", {
      tags: ["Conversations"],
    }),
    "GET /api/v1/markers": d("Reading positions", "Markers", { query: markerQuery, tags: ["Markers"] }),
    "POST /api/v1/markers": d("Save reading positions", "Markers", {
      body: markers,
      answers: { 409: { ...EMPTY, description: "`{}`: a concurrent update won" } },
      tags: ["Markers"],
    }),
    "GET /api/v1/lists": d("The user's lists", "List[]", { tags: ["Lists"] }),
    "POST /api/v1/lists": d("Create a list", "List", { body: list, tags: ["Lists"] }),
    "GET /api/v1/lists/:id{[0-9]+}": d("One list", "List", { tags: ["Lists"] }),
    "PUT /api/v1/lists/:id{[0-9]+}": d("Change a list", "List", { body: list.partial(), tags: ["Lists"] }),
    "DELETE /api/v1/lists/:id{[0-9]+}": d("Delete a list", EMPTY, { tags: ["Lists"] }),
    "GET /api/v1/lists/:id{[0-9]+}/accounts": pageOf("A list's members", "Account", 40, 80, {
      description: "`limit=0` answers every member.",
      tags: ["Lists"],
    }),
    "POST /api/v1/lists/:id{[0-9]+}/accounts": d("Add followed accounts to a list", EMPTY, {
      body: members,
      tags: ["Lists"],
    }),
    "DELETE /api/v1/lists/:id{[0-9]+}/accounts": d("Remove accounts from a list", EMPTY, {
      body: members,
      tags: ["Lists"],
    }),
    "GET /api/v1/streaming/health": d(
      "Whether streaming works",
      { schema: { type: "string", const: "OK" }, type: "text/plain" },
      { tags: ["Streaming"] },
    ),
    "GET /api/v1/streaming/user": stream("Events of the home timeline and notifications", ["read:statuses"]),
    "GET /api/v1/streaming/user/notification": stream("Notification events", ["read:notifications"]),
    "GET /api/v1/streaming/public": stream("The public timeline", [], media),
    "GET /api/v1/streaming/public/media": stream("The public timeline, media only", []),
    "GET /api/v1/streaming/public/local": stream("The local timeline", [], media),
    "GET /api/v1/streaming/public/local/media": stream("The local timeline, media only", []),
    "GET /api/v1/streaming/public/remote": stream("The remote timeline", [], media),
    "GET /api/v1/streaming/public/remote/media": stream("The remote timeline, media only", []),
    "GET /api/v1/streaming/hashtag": stream("A hashtag's statuses", [], tag),
    "GET /api/v1/streaming/hashtag/local": stream("A hashtag's local statuses", [], tag),
    "GET /api/v1/streaming/list": stream("A list's statuses", ["read:statuses"], z.object({ list: z.string() })),
    "GET /api/v1/streaming/direct": stream("Direct conversations", ["read:statuses"]),
    "GET /api/v1/streaming": d("Streaming over WebSocket", null, {
      status: 101,
      description:
        "Upgrade to a WebSocket (served by the HTTP server's upgrade, outside the route table). Send " +
        '`{"type":"subscribe","stream":"user"}` (`unsubscribe` likewise; `tag`, `list` for those streams); ' +
        'events arrive as `{"stream":[...],"event":"update","payload":"<JSON>"}`. The token goes in ' +
        "`access_token` or the `Sec-WebSocket-Protocol` header.",
      query: z.object({
        access_token: z.string().optional(),
        stream: z.string().optional(),
        tag: z.string().optional(),
        list: z.string().optional(),
      }),
      auth: "user",
      scopes: ["read:statuses"],
      errors: [401],
      external: true,
      tags: ["Streaming"],
    }),
    "GET /api/v1/announcements": d("Announcements of the server", "Announcement[]", {
      query: z.object({ with_dismissed: bool }),
      tags: ["Announcements"],
    }),
    "POST /api/v1/announcements/:id/dismiss": d("Dismiss an announcement", EMPTY, { tags: ["Announcements"] }),
    "PUT /api/v1/announcements/:id/reactions/:name": d("React to an announcement", EMPTY, {
      ...announcementReaction,
      tags: ["Announcements"],
    }),
    "DELETE /api/v1/announcements/:id/reactions/:name": d("Remove a reaction", EMPTY, {
      ...announcementReaction,
      tags: ["Announcements"],
    }),
  },
};
