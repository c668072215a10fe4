import type { Federation } from "@fedify/fedify";
import { Application, Endpoints, Tombstone } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";
import { isAccountDeleted, isAccountPublic } from "../../policies/accounts.ts";
import { INSTANCE_ACTOR_PATH, instanceActorKeyPairs, localActorKeyPairs } from "../keys.ts";
import { buildLocalActor } from "../outbox/actor.ts";

/**
 * The instance actor's identifier: the local domain, which no username can be (usernames are
 * letters, digits and underscores), so it never names an account. Its actor lives at `/actor`
 * as Mastodon's does, and WebFinger answers `acct:DOMAIN@DOMAIN` with it.
 */
export function instanceActorId(ctx: AppContext): string {
  return ctx.config.localDomain;
}

/** A local account by actor identifier (its username), visible or not. */
async function accountOf(ctx: AppContext, identifier: string) {
  return identifier === instanceActorId(ctx) ? undefined : ctx.repos.accounts.getByUsername(identifier, null);
}

/**
 * Actors at `/users/{username}` (and the instance actor at `/actor`), their key pairs, and the
 * handles WebFinger answers for.
 */
export function registerActorDispatchers(federation: Federation<AppContext>, instanceId: string): void {
  federation
    .setActorDispatcher("/users/{identifier}", async (fctx, identifier) => {
      const ctx = fctx.data;
      if (identifier === instanceId) {
        // Mastodon's instance actor: an Application signing the fetches no user asked for.
        const keys = await fctx.getActorKeyPairs(identifier);
        return new Application({
          id: fctx.getActorUri(identifier),
          preferredUsername: identifier,
          name: identifier,
          inbox: fctx.getInboxUri(),
          outbox: fctx.getOutboxUri(identifier),
          endpoints: new Endpoints({ sharedInbox: fctx.getInboxUri() }),
          url: new URL(`${ctx.config.baseUrl}/about/more?instance_actor=true`),
          manuallyApprovesFollowers: true,
          publicKey: keys[0]?.cryptographicKey ?? null,
          assertionMethods: keys.map((k) => k.multikey),
        });
      }
      const account = await accountOf(ctx, identifier);
      if (!account) return null;
      if (isAccountDeleted(account)) {
        return new Tombstone({ id: fctx.getActorUri(identifier), deleted: Temporal.Instant.from(account.updatedAt) });
      }
      const user = await ctx.repos.users.getByAccountId(account.id);
      if (!isAccountPublic(account, user)) return null;
      return buildLocalActor(fctx, account);
    })
    .setKeyPairsDispatcher(async (fctx, identifier) => {
      const ctx = fctx.data;
      if (identifier === instanceId) return instanceActorKeyPairs(ctx);
      const account = await accountOf(ctx, identifier);
      return account ? localActorKeyPairs(ctx, account.id) : [];
    })
    .mapActorAlias(INSTANCE_ACTOR_PATH, instanceId)
    .mapHandle(async (fctx, username) => {
      const ctx = fctx.data;
      if (username === instanceId) return instanceId;
      const account = await ctx.repos.accounts.getByUsername(username, null);
      if (!account || isAccountDeleted(account)) return null;
      const user = await ctx.repos.users.getByAccountId(account.id);
      return isAccountPublic(account, user) ? account.username : null;
    });
}
