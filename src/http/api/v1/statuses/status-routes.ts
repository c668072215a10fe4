import type { Hono } from "hono";
import { queueRepliesBackfill } from "../../../../federation/resolve/queue.ts";
import { ApiError } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import { serializeStatusSource } from "../../../../serializers/status.ts";
import { accountsJson } from "../../../../services/accounts/views.ts";
import { statusCardJson } from "../../../../services/preview-cards/views.ts";
import {
  parseScheduledAt,
  scheduledStatusesJson,
  scheduleStatus,
} from "../../../../services/scheduled-statuses/schedule.ts";
import {
  type CreateStatusInput,
  createStatus,
  REPLY_NOT_FOUND,
  UnexpectedMentionsError,
} from "../../../../services/statuses/create.ts";
import { deleteStatus, releaseStatusMedia, removeStatusPoll } from "../../../../services/statuses/delete.ts";
import { editStatus } from "../../../../services/statuses/edit.ts";
import { findVisibleStatus, visibleStatusesByIds } from "../../../../services/statuses/find.ts";
import { statusHistoryJson } from "../../../../services/statuses/history.ts";
import { statusContext } from "../../../../services/statuses/thread.ts";
import type { Visibility } from "../../../../services/statuses/types.ts";
import { statusesJson, statusJson } from "../../../../services/statuses/views.ts";
import {
  currentAccount,
  currentUser,
  optionalToken,
  requireToken,
  requireUser,
  viewerAccount,
} from "../../../middleware/auth.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { validate } from "../../../validate.ts";
import {
  allowedMentionsOf,
  createStatusSchema,
  deleteSchema,
  editStatusSchema,
  mediaIdsOf,
  pollOf,
} from "./schemas.ts";
import { throttleDeletes, throttleStatuses } from "./throttles.ts";

/** `GET /api/v1/statuses?id[]=` answers at most this many (Mastodon's limit). */
const MAX_IDS = 20;

/** Posting, reading, editing and deleting statuses; threads, edit history and source. */
export function statusRoutes(app: Hono<HonoEnv>): void {
  app.post("/api/v1/statuses", requireUser("write", "write:statuses"), throttleStatuses(), async (c) => {
    const ctx = c.env.ctx;
    const p = validate(createStatusSchema, await readParams(c));
    const poll = pollOf(p.poll);
    if (p.in_reply_to_id !== undefined && !isId(p.in_reply_to_id)) throw new ApiError(404, REPLY_NOT_FOUND);
    const account = currentAccount(c);
    const input: CreateStatusInput = {
      text: p.status ?? "",
      spoilerText: p.spoiler_text ?? "",
      sensitive: p.sensitive,
      visibility: p.visibility as Visibility | undefined,
      language: p.language,
      inReplyToId: p.in_reply_to_id,
      applicationId: c.get("auth")?.token.applicationId ?? null,
      mediaIds: mediaIdsOf(p.media_ids),
      poll,
      idempotencyKey: c.req.header("idempotency-key")?.slice(0, 200) || undefined,
      allowedMentions: allowedMentionsOf(p.allowed_mentions),
      quotedStatusId: p.quoted_status_id,
      quotePolicy: p.quote_approval_policy,
    };
    // A time already past posts at once, as Mastodon does; a future one schedules the post.
    const at = p.scheduled_at === undefined ? undefined : parseScheduledAt(p.scheduled_at);
    if (at && at.getTime() > Date.now()) {
      const [json] = await scheduledStatusesJson(ctx, [await scheduleStatus(ctx, account, input, at)]);
      return c.json(json);
    }
    try {
      const status = await createStatus(ctx, account, currentUser(c), input);
      return c.json(await statusJson(ctx, status, account.id));
    } catch (e) {
      if (!(e instanceof UnexpectedMentionsError)) throw e;
      throw new ApiError(422, e.message, { unexpected_accounts: await accountsJson(ctx, e.accounts) });
    }
  });

  app.get("/api/v1/statuses", optionalToken("read", "read:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const ids = [...new Set((asArray((await readParams(c)).id) ?? []).map(String))];
    if (ids.length > MAX_IDS)
      throw new ApiError(422, `Validation failed: too many statuses requested (maximum is ${MAX_IDS})`);
    const viewerId = viewerAccount(c)?.id;
    return c.json(await statusesJson(ctx, await visibleStatusesByIds(ctx, ids, viewerId), viewerId));
  });

  app.get("/api/v1/statuses/:id{[0-9]+}", optionalToken("read", "read:statuses"), async (c) => {
    const viewerId = viewerAccount(c)?.id;
    const status = await findVisibleStatus(c.env.ctx, c.req.param("id"), viewerId);
    return c.json(await statusJson(c.env.ctx, status, viewerId));
  });

  app.delete("/api/v1/statuses/:id{[0-9]+}", requireUser("write", "write:statuses"), throttleDeletes(), async (c) => {
    const ctx = c.env.ctx;
    const account = currentAccount(c);
    const status = await findVisibleStatus(ctx, c.req.param("id"), account.id);
    const deleteMedia = validate(deleteSchema, c.req.query()).delete_media ?? false;
    const deleted = await deleteStatus(ctx, account, status);
    const json = await statusJson(ctx, deleted, account.id, { withSource: true });
    await releaseStatusMedia(ctx, deleted.id, deleteMedia);
    await removeStatusPoll(ctx, deleted);
    return c.json(json);
  });

  app.put("/api/v1/statuses/:id{[0-9]+}", requireUser("write", "write:statuses"), throttleStatuses(), async (c) => {
    const ctx = c.env.ctx;
    const account = currentAccount(c);
    const p = validate(editStatusSchema, await readParams(c));
    const poll = pollOf(p.poll);
    const status = await findVisibleStatus(ctx, c.req.param("id"), account.id);
    const edited = await editStatus(ctx, account, status, {
      text: p.status,
      spoilerText: p.spoiler_text,
      sensitive: p.sensitive,
      language: p.language,
      mediaIds: p.media_ids === undefined ? undefined : mediaIdsOf(p.media_ids),
      poll,
      quotePolicy: p.quote_approval_policy,
    });
    return c.json(await statusJson(ctx, edited, account.id));
  });

  app.get("/api/v1/statuses/:id{[0-9]+}/context", optionalToken("read", "read:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const viewerId = viewerAccount(c)?.id;
    const status = await findVisibleStatus(ctx, c.req.param("id"), viewerId);
    // Replies the remote server knows and this one does not are fetched in the background.
    if (!status.local) await queueRepliesBackfill(ctx, status.id);
    const { ancestors, descendants } = await statusContext(ctx, status, viewerId);
    const json = await statusesJson(ctx, [...ancestors, ...descendants], viewerId, { filterContext: "thread" });
    // A `hide` filter may have left some out.
    const above = new Set(ancestors.map((s) => s.id));
    return c.json({
      ancestors: json.filter((s) => above.has(s.id as string)),
      descendants: json.filter((s) => !above.has(s.id as string)),
    });
  });

  // Removed from Mastodon in 3.0 (the card is inlined in the Status); kept for old clients: the
  // card, or `{}` without one, as Mastodon 2.x answered.
  app.get("/api/v1/statuses/:id{[0-9]+}/card", optionalToken("read", "read:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const status = await findVisibleStatus(ctx, c.req.param("id"), viewerAccount(c)?.id);
    return c.json(await statusCardJson(ctx, status.id));
  });

  app.get("/api/v1/statuses/:id{[0-9]+}/history", optionalToken("read", "read:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const status = await findVisibleStatus(ctx, c.req.param("id"), viewerAccount(c)?.id);
    return c.json(await statusHistoryJson(ctx, status));
  });

  app.get("/api/v1/statuses/:id{[0-9]+}/source", requireToken("read", "read:statuses"), async (c) => {
    const status = await findVisibleStatus(c.env.ctx, c.req.param("id"), viewerAccount(c)?.id);
    return c.json(serializeStatusSource(status));
  });
}
