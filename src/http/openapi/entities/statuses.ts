import { z } from "zod";
import { Account, CustomEmoji } from "./accounts.ts";
import { count, dateTime, entity, id, url, visibility } from "./common.ts";
import { FilterResult } from "./filters.ts";

export const StatusMention = entity(
  "StatusMention",
  "An account a post mentions.",
  z.object({ id: id(), username: z.string(), url: url(), acct: z.string() }),
);

export const StatusTag = entity(
  "StatusTag",
  "A hashtag a post uses, with the link to its timeline.",
  z.object({ name: z.string(), url: url() }),
);

export const MediaAttachment = entity(
  "MediaAttachment",
  "An image, video, audio or other file attached to a post; `url` is null while it is processed.",
  z.object({
    id: id(),
    type: z.enum(["image", "gifv", "video", "audio", "unknown"]),
    url: url().nullable(),
    preview_url: url().nullable(),
    remote_url: url().nullable(),
    preview_remote_url: url().nullable(),
    meta: z.record(z.string(), z.unknown()),
    description: z.string().nullable(),
    blurhash: z.string().nullable(),
  }),
);

export const PollOption = entity(
  "PollOption",
  "One choice of a poll; its count is null while a poll that hides its totals runs.",
  z.object({ title: z.string(), votes_count: count().nullable() }),
);

export const Poll = entity(
  "Poll",
  "A poll attached to a post; `voted` and `own_votes` only for a signed-in viewer.",
  z.object({
    id: id(),
    expires_at: dateTime().nullable(),
    expired: z.boolean(),
    multiple: z.boolean(),
    votes_count: count(),
    voters_count: count().nullable(),
    voted: z.boolean().optional(),
    own_votes: z.array(z.number().int()).optional(),
    options: z.array(PollOption),
    emojis: z.array(CustomEmoji),
  }),
);

export const PreviewCard = entity(
  "PreviewCard",
  "A rich preview of the first link in a post, from the linked page's metadata.",
  z.object({
    url: url(),
    title: z.string(),
    description: z.string(),
    language: z.string().nullable(),
    type: z.enum(["link", "photo", "video", "rich"]),
    author_name: z.string(),
    author_url: z.string(),
    provider_name: z.string(),
    provider_url: z.string(),
    html: z.string(),
    width: count(),
    height: count(),
    image: url().nullable(),
    image_description: z.string(),
    embed_url: z.string(),
    blurhash: z.string().nullable(),
    published_at: dateTime().nullable(),
    authors: z.array(z.object({ name: z.string(), url: z.string(), account: Account.nullable() })),
  }),
);

const QuoteApproval = z.object({
  automatic: z.array(z.string()),
  manual: z.array(z.string()),
  current_user: z.string(),
});

export const Status = entity(
  "Status",
  "A post. A boost is a Status whose `reblog` is the boosted post; the viewer's own flags " +
    "(favourited, reblogged, muted, bookmarked, pinned) only with a token; `text` only when deleting.",
  z.object({
    id: id(),
    created_at: dateTime(),
    in_reply_to_id: id().nullable(),
    in_reply_to_account_id: id().nullable(),
    sensitive: z.boolean(),
    spoiler_text: z.string(),
    visibility: visibility(),
    language: z.string().nullable(),
    uri: url(),
    url: url().nullable(),
    replies_count: count(),
    reblogs_count: count(),
    favourites_count: count(),
    quotes_count: count(),
    edited_at: dateTime().nullable(),
    favourited: z.boolean().optional(),
    reblogged: z.boolean().optional(),
    muted: z.boolean().optional(),
    bookmarked: z.boolean().optional(),
    pinned: z.boolean().optional(),
    content: z.string(),
    text: z.string().optional(),
    filtered: z.array(FilterResult),
    get reblog() {
      return Status.nullable();
    },
    application: z.object({ name: z.string(), website: z.string().nullable() }).optional(),
    account: Account,
    media_attachments: z.array(MediaAttachment),
    mentions: z.array(StatusMention),
    tags: z.array(StatusTag),
    emojis: z.array(CustomEmoji),
    quote: z.null(),
    quote_approval: QuoteApproval,
    card: PreviewCard.nullable(),
    poll: Poll.nullable(),
  }),
);

export const Context = entity(
  "Context",
  "The visible posts above (oldest first) and below (depth first) a post in its thread.",
  z.object({ ancestors: z.array(Status), descendants: z.array(Status) }),
);

export const StatusSource = entity(
  "StatusSource",
  "A post's text as its author typed it, to edit it.",
  z.object({ id: id(), text: z.string(), spoiler_text: z.string() }),
);

export const StatusEdit = entity(
  "StatusEdit",
  "One version of a post in its edit history, oldest first.",
  z.object({
    content: z.string(),
    spoiler_text: z.string(),
    sensitive: z.boolean(),
    created_at: dateTime(),
    account: Account,
    poll: z.object({ options: z.array(z.object({ title: z.string() })) }).optional(),
    media_attachments: z.array(MediaAttachment),
    emojis: z.array(CustomEmoji),
  }),
);

export const ScheduledStatus = entity(
  "ScheduledStatus",
  "A post waiting to be published at `scheduled_at`, with the parameters it was made with.",
  z.object({
    id: id(),
    scheduled_at: dateTime(),
    params: z.object({
      poll: z
        .object({
          options: z.array(z.string()),
          expires_in: z.union([z.number(), z.string()]),
          multiple: z.boolean().optional(),
          hide_totals: z.boolean().optional(),
        })
        .nullable(),
      text: z.string().nullable(),
      language: z.string().nullable(),
      media_ids: z.array(id()).nullable(),
      sensitive: z.boolean().nullable(),
      visibility: visibility().nullable(),
      idempotency: z.string().nullable(),
      scheduled_at: dateTime().nullable(),
      spoiler_text: z.string().nullable(),
      application_id: z.union([id(), z.number().int()]).nullable(),
      in_reply_to_id: id().nullable(),
      with_rate_limit: z.boolean(),
      allowed_mentions: z.array(id()).nullable(),
    }),
    media_attachments: z.array(MediaAttachment),
  }),
);

export const TagHistory = entity(
  "TagHistory",
  "A hashtag's use on one day: the day in Unix seconds, the counts as decimal strings.",
  z.object({ day: z.string(), uses: z.string(), accounts: z.string() }),
);

export const Tag = entity(
  "Tag",
  "A hashtag with a week of use (newest day first); `following` and `featuring` only with a token.",
  z.object({
    id: z.string(),
    name: z.string(),
    url: url(),
    history: z.array(TagHistory),
    following: z.boolean().optional(),
    featuring: z.boolean().optional(),
  }),
);

export const TrendsLink = entity(
  "TrendsLink",
  "A trending link (Mastodon's Trends::Link): its PreviewCard and a week of sharing (posts and accounts per day, newest first).",
  PreviewCard.extend({ history: z.array(TagHistory) }),
);

export const Search = entity(
  "Search",
  "What a search found: accounts, posts and hashtags.",
  z.object({ accounts: z.array(Account), statuses: z.array(Status), hashtags: z.array(Tag) }),
);

export const Conversation = entity(
  "Conversation",
  "A private-mention thread: the other participants and its latest post.",
  z.object({ id: id(), unread: z.boolean(), accounts: z.array(Account), last_status: Status.nullable() }),
);

export const Translation = entity(
  "Translation",
  "A machine translation of a post (Gannet has no translation service yet: the route answers an error).",
  z.object({
    content: z.string(),
    spoiler_text: z.string(),
    language: z.string(),
    detected_source_language: z.string(),
    provider: z.string(),
    media_attachments: z.array(z.object({ id: id(), description: z.string() })),
    poll: z.object({ id: id(), options: z.array(z.object({ title: z.string() })) }).nullable(),
  }),
);
