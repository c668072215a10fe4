import { createFederation, type Federation, type KvStore } from "@fedify/fedify";
import { Endpoints, Link, Person, Service } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../context.ts";
import { isAccountPublic } from "../policies/accounts.ts";

/**
 * The Fedify federation object: WebFinger and actors now; inbox, outbox and collections are
 * registered here as federation grows. `origin` makes handles use LOCAL_DOMAIN and URLs WEB_DOMAIN
 * whatever host header a request arrives with.
 */
export function createGannetFederation(app: AppContext, kv: KvStore): Federation<AppContext> {
  const { config } = app;
  const federation = createFederation<AppContext>({
    kv,
    origin: { handleHost: config.localDomain, webOrigin: config.baseUrl },
    trailingSlashInsensitive: true,
    allowPrivateAddress: config.allowedPrivateAddresses.length > 0,
    userAgent: { software: "Gannet/0.1.0", url: new URL(config.baseUrl) },
  });

  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      const account = await ctx.data.repos.accounts.getByUsername(identifier, null);
      if (!account || account.suspendedAt !== null) return null;
      const user = await ctx.data.repos.users.getByAccountId(account.id);
      if (!isAccountPublic(account, user)) return null;
      const Actor = account.actorType === "Service" ? Service : Person;
      return new Actor({
        id: ctx.getActorUri(identifier),
        preferredUsername: account.username,
        name: account.displayName,
        summary: account.note,
        url: new Link({
          href: new URL(`${ctx.data.config.baseUrl}/@${account.username}`),
          rel: "http://webfinger.net/rel/profile-page",
          mediaType: "text/html",
        }),
        manuallyApprovesFollowers: account.locked,
        discoverable: account.discoverable ?? false,
        indexable: account.indexable,
        published: Temporal.Instant.from(account.createdAt),
        endpoints: new Endpoints({}),
      });
    })
    .mapHandle(async (ctx, username) => {
      const account = await ctx.data.repos.accounts.getByUsername(username, null);
      if (!account) return null;
      const user = await ctx.data.repos.users.getByAccountId(account.id);
      return isAccountPublic(account, user) ? account.username : null;
    });

  // Remote servers offer "follow from your server" through this template (Mastodon has it too).
  federation.setWebFingerLinksDispatcher((ctx) => [
    {
      rel: "http://ostatus.org/schema/1.0/subscribe",
      template: `${ctx.data.config.baseUrl}/authorize_interaction?uri={uri}`,
    },
  ]);

  return federation;
}
