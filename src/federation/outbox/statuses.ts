import type { Context } from "@fedify/fedify";
import { type Activity, Announce, Create, Delete, Note, Tombstone } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { MastodonUpdate } from "./mastodon-terms.ts";
import { addressing, createOf, loadNoteSources, toNote } from "./note.ts";

const instant = (iso: string) => Temporal.Instant.from(iso);

/**
 * The Create, Update or Delete of a local post, addressed as its Note is (by visibility, to its
 * author's followers and the accounts it mentions). An edit's Update is named after the edit
 * (`#updates/TIME`, as Mastodon's; `updatedAt` when it is not an edit); a Delete carries a
 * Tombstone at the post's URI.
 */
export async function statusActivity(
  fctx: Context<AppContext>,
  kind: "create" | "update" | "delete",
  status: Status,
  updatedAt?: string,
): Promise<Activity | null> {
  const [src] = await loadNoteSources(fctx.data, [status]);
  if (!src) return null;
  if (kind === "create") return createOf(fctx, src);
  const actor = new URL(src.author.uri);
  const { tos, ccs } = addressing(fctx, status, src.author, src.mentions);
  if (kind === "update") {
    const at = updatedAt ?? status.editedAt ?? status.updatedAt;
    return new MastodonUpdate({
      id: new URL(`${status.uri}#updates/${Date.parse(at)}`),
      actor,
      tos,
      ccs,
      published: instant(at),
      updated: instant(at),
      object: toNote(fctx, src),
    });
  }
  return new Delete({
    id: new URL(`${status.uri}#delete`),
    actor,
    tos,
    ccs,
    object: new Tombstone({
      id: new URL(status.uri),
      ...(status.deletedAt ? { deleted: instant(status.deletedAt) } : {}),
    }),
  });
}

/**
 * `Announce` of a boost (its id is the boost's URI), addressed by the boost's visibility with the
 * boosted post's author in cc, so their server counts it.
 */
export function announce(
  fctx: Context<AppContext>,
  booster: Account,
  boost: Status,
  original: Status,
  author: Account,
): Announce {
  const { tos, ccs } = addressing(fctx, boost, booster, [author]);
  return new Announce({
    id: new URL(boost.uri),
    actor: new URL(booster.uri),
    published: instant(boost.createdAt),
    tos,
    ccs,
    object: new URL(original.uri),
  });
}

/**
 * A vote in a remote poll, as Mastodon sends it: a `Create` of a Note whose `name` is the option,
 * in reply to the Question, addressed only to the poll's author.
 */
export function pollVote(
  fctx: Context<AppContext>,
  voter: Account,
  question: Status,
  pollAuthor: Account,
  voteId: string,
  option: string,
): Create {
  const actor = fctx.getActorUri(voter.username);
  const to = new URL(pollAuthor.uri);
  return new Create({
    id: new URL(`${actor.href}#votes/${voteId}/activity`),
    actor,
    to,
    object: new Note({
      id: new URL(`${actor.href}#votes/${voteId}`),
      name: option,
      attribution: actor,
      to,
      replyTarget: new URL(question.uri),
    }),
  });
}
