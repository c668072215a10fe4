import type { Context } from "@fedify/fedify";
import { type Actor, isActor } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { persistActor } from "../persist/actor.ts";
import { loaderOptions } from "../persist/origin.ts";
import { queueOutboxBackfill } from "./queue.ts";
import { webfingerActorUrl } from "./webfinger.ts";

/** A remote lookup (WebFinger, then the actor) gives up after this long. */
export const RESOLVE_TIMEOUT_MS = 15_000;

/** A Fedify context for work outside a request (the federation's document loader, signed fetches). */
export async function fedifyContext(app: AppContext): Promise<Context<AppContext>> {
  return (await app.federation()).createContext(new URL(app.config.baseUrl), app);
}

/** Stores a fetched actor (fedin's `persistActor`); a new account gets its recent posts backfilled. */
export async function storeActor(
  app: AppContext,
  ctx: Context<AppContext>,
  actor: Actor,
  opts: { webfingered?: boolean } = {},
): Promise<Account | undefined> {
  const known = actor.id ? await app.repos.accounts.getByUri(actor.id.href) : undefined;
  const account = await persistActor(ctx, actor, { webfingered: opts.webfingered });
  if (!account) return undefined;
  if (!known && account.domain !== null) await queueOutboxBackfill(app, account.id);
  return account;
}

/**
 * Fetches the actor at `url` through Fedify's document loader and stores it. undefined when it
 * is not an actor or cannot be had in time.
 */
export async function resolveActorUrl(
  app: AppContext,
  url: URL,
  opts: { webfingered?: boolean; signal?: AbortSignal } = {},
): Promise<Account | undefined> {
  const ctx = await fedifyContext(app);
  let actor: unknown;
  try {
    actor = await ctx.lookupObject(url.href, {
      ...loaderOptions(ctx),
      signal: opts.signal ?? AbortSignal.timeout(RESOLVE_TIMEOUT_MS),
    });
  } catch {
    return undefined;
  }
  if (!isActor(actor) || !actor.id) return undefined;
  return storeActor(app, ctx, actor, opts);
}

/**
 * The remote account `username@domain`, from WebFinger when not known here (Mastodon's
 * ResolveAccountService): the handle's actor URL, then the actor. Bounded in time.
 */
export async function resolveRemoteAccount(
  app: AppContext,
  username: string,
  domain: string,
  opts: { signal?: AbortSignal } = {},
): Promise<Account | undefined> {
  const known = await app.repos.accounts.getByUsername(username, domain);
  if (known) return known;
  const signal = opts.signal ?? AbortSignal.timeout(RESOLVE_TIMEOUT_MS);
  const actorUrl = await webfingerActorUrl(app, username, domain);
  if (!actorUrl || signal.aborted) return undefined;
  const account = await resolveActorUrl(app, actorUrl, { webfingered: true, signal });
  // A handle whose actor names another account (a moved or mis-pointed handle) is not this one.
  if (!account || account.username.toLowerCase() !== username.toLowerCase()) return undefined;
  return account;
}

/** The `accounts.refresh` job: fetches a stale remote account's actor again and stores it. */
export async function refreshAccount(app: AppContext, accountId: string): Promise<void> {
  const account = await app.repos.accounts.getById(accountId);
  if (!account || account.domain === null) return;
  await resolveActorUrl(app, new URL(account.uri));
}
