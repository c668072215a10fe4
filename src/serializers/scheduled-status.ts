import { type BlobUrl, type MediaAttachmentView, serializeMediaAttachment } from "./media-attachment.ts";

/** What the ScheduledStatus entity reads of a scheduled status (its row has these and more). */
export interface ScheduledStatusView {
  id: string;
  scheduledAt: string;
  /** The parameters of the status to post, as given. */
  params: Readonly<Record<string, unknown>>;
}

/** The `params` keys in the order Mastodon's JSONB column gives them back. */
const PARAM_KEYS = [
  "poll",
  "text",
  "language",
  "media_ids",
  "sensitive",
  "visibility",
  "idempotency",
  "scheduled_at",
  "spoiler_text",
  "application_id",
  "in_reply_to_id",
  "with_rate_limit",
  "allowed_mentions",
] as const;

/** Mastodon's ScheduledStatus entity. */
export function serializeScheduledStatus(
  s: ScheduledStatusView,
  media: readonly MediaAttachmentView[],
  blobUrl: BlobUrl,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const k of PARAM_KEYS) params[k] = s.params[k] ?? (k === "with_rate_limit" ? false : null);
  return {
    id: s.id,
    scheduled_at: s.scheduledAt,
    params,
    media_attachments: media.map((m) => serializeMediaAttachment(m, blobUrl)),
  };
}
