import { isActor } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isNoteLike, persistNote } from "../persist/note.ts";
import { loaderOptions } from "../persist/origin.ts";
import { fedifyContext, RESOLVE_TIMEOUT_MS, storeActor } from "./accounts.ts";

/** How many unknown posts up the thread a resolved post may bring with it. */
const PARENTS_FETCHED = 3;

export type Resolved = { account: Account } | { status: Status };

/**
 * What a remote URL is (Mastodon's ResolveURLService): a profile (the actor) or a post (a Note,
 * Question or Article), fetched through Fedify's document loader and stored. Known URIs answer
 * from the database without a fetch. Bounded in time; undefined when it is neither or cannot be had.
 */
export async function resolveUrl(app: AppContext, url: URL): Promise<Resolved | undefined> {
  const knownStatus = await app.repos.statuses.getByUri(url.href);
  if (knownStatus) return { status: knownStatus };
  const knownAccount = await app.repos.accounts.getByUri(url.href);
  if (knownAccount) return { account: knownAccount };
  const ctx = await fedifyContext(app);
  const signal = AbortSignal.timeout(RESOLVE_TIMEOUT_MS);
  let object: unknown;
  try {
    object = await ctx.lookupObject(url.href, { ...loaderOptions(ctx), signal });
  } catch {
    return undefined;
  }
  if (isActor(object)) {
    const account = await storeActor(app, ctx, object);
    return account && { account };
  }
  if (isNoteLike(object)) {
    const status = await persistNote(ctx, object, { fetchParents: PARENTS_FETCHED, fetchQuote: 1 });
    return status ? { status } : undefined;
  }
  return undefined;
}
