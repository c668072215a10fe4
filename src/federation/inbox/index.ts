import type { Federation } from "@fedify/fedify";
import {
  Accept,
  Add,
  Announce,
  Block,
  Create,
  Delete,
  Flag,
  Follow,
  Like,
  Move,
  QuoteRequest,
  Reject,
  Remove,
  Undo,
  Update,
} from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { onAccept, onReject } from "./accept-reject.ts";
import { onAnnounce } from "./announce.ts";
import { onBlock } from "./block.ts";
import { onCreate } from "./create.ts";
import { onDelete } from "./delete.ts";
import { onAdd, onRemove } from "./featured.ts";
import { onFlag } from "./flag.ts";
import { onFollow } from "./follow.ts";
import { inboxIdempotencyKey } from "./idempotency.ts";
import { onLike } from "./like.ts";
import { onMove } from "./move.ts";
import { onQuoteRequest } from "./quote-request.ts";
import { onUndo } from "./undo.ts";
import { onUpdate } from "./update.ts";

const logger = getLogger(["gannet", "federation", "inbox"]);

/**
 * The personal inboxes (`/users/{identifier}/inbox`) and the shared inbox (`/inbox`); one listener
 * file per activity type in this folder, each registered here with `.on(Type, handler)`. Fedify
 * verifies every activity's signature (HTTP Signatures, cavage draft and RFC 9421; Linked Data
 * signatures; object integrity proofs), that the signing key belongs to the actor, the date window
 * against replays, and answers malformed JSON or JSON-LD with 400, before any listener runs;
 * `inboxPrecheck` (the bridge) refused blocked domains before that.
 */
export function registerInboxListeners(federation: Federation<AppContext>): void {
  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Create, onCreate)
    .on(Update, onUpdate)
    .on(Delete, onDelete)
    .on(Like, onLike)
    .on(Announce, onAnnounce)
    .on(Follow, onFollow)
    .on(Accept, onAccept)
    .on(Reject, onReject)
    .on(Undo, onUndo)
    .on(Block, onBlock)
    .on(Flag, onFlag)
    .on(Move, onMove)
    .on(Add, onAdd)
    .on(Remove, onRemove)
    .on(QuoteRequest, onQuoteRequest)
    .withIdempotency(inboxIdempotencyKey)
    .onError((_ctx, error) => {
      logger.error("Inbox activity failed: {error}", { error });
    });
}
