import type { Federation, RequestContext } from "@fedify/fedify";
import { Note, QuoteAuthorization } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isAccountDeleted, isAccountPublic } from "../../policies/accounts.ts";
import { loadNoteSources, type NoteSource, toNote } from "../outbox/note.ts";
import { QUOTE_AUTHORIZATION_PATH, quoteAuthorization } from "../outbox/quotes.ts";
import { instanceActorId } from "./actor.ts";

export const STATUS_PATH = "/users/{identifier}/statuses/{id}";
const REPLIES_PAGE = 20;
const FIRST = "first";

/** A live local post (not a boost) of the local account `username`, with its author. */
export async function localPost(
  ctx: AppContext,
  username: string,
  id: string,
): Promise<{ status: Status; author: Account } | undefined> {
  if (!/^[0-9]{1,20}$/.test(id) || username === instanceActorId(ctx)) return undefined;
  const [status, author] = await Promise.all([
    ctx.repos.statuses.getById(id),
    ctx.repos.accounts.getByUsername(username, null),
  ]);
  if (!status || !author || status.accountId !== author.id || !status.local) return undefined;
  if (status.deletedAt !== null || status.reblogOfId !== null) return undefined;
  if (author.suspendedAt !== null || isAccountDeleted(author)) return undefined;
  if (!isAccountPublic(author, await ctx.repos.users.getByAccountId(author.id))) return undefined;
  return { status, author };
}

/**
 * Whether a request may see a post: public and unlisted ones always; followers-only ones when
 * the request is signed by an actor of a server where the author has a follower (servers fetch
 * with their instance actor, as delivery went to their shared inbox), or by a mentioned actor;
 * direct ones only when signed by a server of a mentioned account.
 */
export async function maySeePost(fctx: RequestContext<AppContext>, src: NoteSource): Promise<boolean> {
  const { status } = src;
  if (status.visibility === "public" || status.visibility === "unlisted") return true;
  if (!fctx.request.headers.has("signature") && !fctx.request.headers.has("signature-input")) return false;
  const signer = await fctx.getSignedKeyOwner();
  if (!signer?.id) return false;
  const origin = signer.id.origin;
  const atSignerOrigin = (a: Account) => URL.canParse(a.uri) && new URL(a.uri).origin === origin;
  if (src.mentions.some(atSignerOrigin)) return true;
  if (status.visibility !== "private") return false;
  return fctx.data.repos.localActors.hasFollowerAt(status.accountId, origin);
}

/**
 * Statuses at their URIs: `Note`, or `Question` for polls. One dispatcher serves both (Fedify
 * routes one object class per path); what it returns is the right type either way.
 */
export function registerObjectDispatchers(federation: Federation<AppContext>): void {
  federation.setObjectDispatcher(Note, STATUS_PATH, async (fctx, values) => {
    const ctx = fctx.data;
    const found = await localPost(ctx, values.identifier, values.id);
    if (!found) return null;
    const [src] = await loadNoteSources(ctx, [found.status]);
    if (!src || !(await maySeePost(fctx, src))) return null;
    return toNote(fctx, src) as Note;
  });

  // The stamps of quotes of local posts (FEP-044f): served while the quote stands accepted, so
  // any server can check that the quoted author approved; gone once revoked.
  federation.setObjectDispatcher(QuoteAuthorization, QUOTE_AUTHORIZATION_PATH, async (fctx, values) => {
    const ctx = fctx.data;
    if (!/^[0-9]{1,20}$/.test(values.id)) return null;
    const quote = await ctx.repos.quotes.byId(values.id);
    if (quote?.state !== "accepted" || quote.quotedStatusId === null) return null;
    const found = await localPost(ctx, values.identifier, quote.quotedStatusId);
    const quoting = await ctx.repos.statuses.getById(quote.statusId);
    if (!found || !quoting || quoting.deletedAt !== null) return null;
    return quoteAuthorization(fctx, found.author, quote, quoting, found.status);
  });

  // A post's `replies`: the URIs of its public and unlisted replies, oldest first, so peers can
  // fetch a thread's missing replies (Mastodon serves the same collection).
  federation
    .setCollectionDispatcher(
      "replies",
      Note,
      "/users/{identifier}/statuses/{id}/replies",
      async (fctx, values, cursor) => {
        const ctx = fctx.data;
        const found = await localPost(ctx, values.identifier, values.id);
        if (!found || (found.status.visibility !== "public" && found.status.visibility !== "unlisted")) return null;
        if (cursor === null) return { items: [] };
        const after = cursor === FIRST || !/^[0-9]{1,20}$/.test(cursor) ? undefined : cursor;
        const page = await ctx.repos.localActors.publicRepliesPage(found.status.id, after, REPLIES_PAGE);
        const last = page.at(-1);
        // URIs, as Mastodon lists them; Fedify's typing wants objects but writes URLs as they are.
        const uris = page.flatMap((r) => (URL.canParse(r.uri) ? [new URL(r.uri)] : []));
        return {
          items: uris as unknown as Note[],
          nextCursor: page.length === REPLIES_PAGE && last ? last.id : null,
        };
      },
    )
    .setFirstCursor(() => FIRST);
}
