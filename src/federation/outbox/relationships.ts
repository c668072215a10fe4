import { randomUUID } from "node:crypto";
import type { Context } from "@fedify/fedify";
import { Accept, type Activity, Block, Flag, Follow, Like, Reject, Undo } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Report } from "../../db/repositories/reports.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { instanceActorId } from "../dispatchers/actor.ts";

/** `Like` of a post; its id names the favourite so its Undo can point at it. */
export function like(fctx: Context<AppContext>, liker: Account, status: Status, likeId: string): Like {
  const actor = fctx.getActorUri(liker.username);
  return new Like({
    id: new URL(`${actor.href}#likes/${likeId}`),
    actor,
    object: new URL(status.uri),
  });
}

/** `Undo` of an earlier activity, addressed as it was (or to `target`). */
export function undo(
  fctx: Context<AppContext>,
  sender: Account,
  activity: Activity,
  id: string,
  target?: Account,
): Undo {
  return new Undo({
    id: new URL(id),
    actor: fctx.getActorUri(sender.username),
    tos: target ? [new URL(target.uri)] : activity.toIds,
    ccs: target ? [] : activity.ccIds,
    object: activity,
  });
}

/** `Follow` of a remote account; `uri` is kept with the request so the Accept can be matched. */
export function follow(fctx: Context<AppContext>, follower: Account, target: Account, uri: string): Follow {
  return new Follow({
    id: new URL(uri),
    actor: fctx.getActorUri(follower.username),
    to: new URL(target.uri),
    object: new URL(target.uri),
  });
}

export function block(fctx: Context<AppContext>, blocker: Account, target: Account, uri: string): Block {
  return new Block({
    id: new URL(uri),
    actor: fctx.getActorUri(blocker.username),
    to: new URL(target.uri),
    object: new URL(target.uri),
  });
}

/**
 * `Accept` or `Reject` of a remote account's Follow of a local one. The Follow is named by the
 * id it came with (`uri`); without one (an old request) it is described by actor and object.
 */
export function answerFollow(
  fctx: Context<AppContext>,
  accept: boolean,
  followed: Account,
  follower: Account,
  uri: string | null,
): Accept | Reject {
  const actor = fctx.getActorUri(followed.username);
  const values = {
    id: new URL(`${actor.href}#${accept ? "accepts" : "rejects"}/follows/${randomUUID()}`),
    actor,
    to: new URL(follower.uri),
    object: new Follow({
      ...(uri ? { id: new URL(uri) } : {}),
      actor: new URL(follower.uri),
      object: actor,
    }),
  };
  return accept ? new Accept(values) : new Reject(values);
}

/**
 * A report forwarded to the reported account's server, from the instance actor (so the
 * reporter stays anonymous there, as with Mastodon): the account and the posts reported.
 */
export function flag(fctx: Context<AppContext>, report: Report, target: Account, statuses: Status[]): Flag {
  return new Flag({
    id: new URL(`${fctx.data.config.baseUrl}/${randomUUID()}`),
    actor: fctx.getActorUri(instanceActorId(fctx.data)),
    content: report.comment,
    objects: [new URL(target.uri), ...statuses.map((s) => new URL(s.uri))],
  });
}

/** The instance actor signs what no user should be seen sending (forwarded reports). */
export function instanceSender(fctx: Context<AppContext>): { identifier: string } {
  return { identifier: instanceActorId(fctx.data) };
}
