import { createFederation, type Federation, type KvStore } from "@fedify/fedify";
import type { AppContext } from "../context.ts";
import { noteOutboxError } from "../services/federation/delivery-health.ts";
import { instanceActorId, registerActorDispatchers } from "./dispatchers/actor.ts";
import { registerCollectionDispatchers } from "./dispatchers/collections.ts";
import { registerObjectDispatchers } from "./dispatchers/objects.ts";
import { installExpansionCache } from "./expansion-cache.ts";
import { registerInboxListeners } from "./inbox/index.ts";
import { installPerRequestSkip } from "./inbox/verified-skip.ts";
import { installKeyParseCache } from "./key-parse-cache.ts";
import { createLoaders } from "./loader.ts";
import { federationQueues } from "./queue.ts";

/**
 * The Fedify federation object. Dispatchers (actors, keys, collections, objects) live in
 * `dispatchers/`, inbox listeners (one file per activity type) in `inbox/`, activity builders in
 * `outbox/`. `origin` makes handles use LOCAL_DOMAIN and URLs WEB_DOMAIN
 * whatever host header a request arrives with.
 */
export function createGannetFederation(app: AppContext, kv: KvStore): Federation<AppContext> {
  const { config } = app;
  installExpansionCache();
  installKeyParseCache();
  const federation = createFederation<AppContext>({
    kv,
    // Deliveries are jobs on Gannet's queue, run by workers; inbox activities are processed in
    // the request that brings them (queue.ts says why).
    queue: federationQueues(app),
    manuallyStartQueue: true,
    // Fedify's circuit holds a whole host, so one hostile actor whose inbox is a failing path on
    // another server would hold that server's mail: Gannet keeps one circuit per inbox instead
    // (delivery-circuit.ts, run by the delivery job in queue.ts).
    circuitBreaker: false,
    // Every failed delivery, the permanent ones (404, 410) included, which Fedify does not throw:
    // the server's delivery health (services/federation/delivery-health.ts).
    onOutboxError: noteOutboxError,
    origin: { handleHost: config.localDomain, webOrigin: config.baseUrl },
    trailingSlashInsensitive: true,
    // Documents, contexts and signed fetches go through the guarded client (loader.ts).
    ...createLoaders(app, kv),
  });
  allowFedifyOwnFetches(federation, app);
  // Fedify does not verify again what the precheck verified (inbox/verified-skip.ts).
  installPerRequestSkip(federation);

  registerActorDispatchers(federation, instanceActorId(app));
  registerCollectionDispatchers(federation);
  registerObjectDispatchers(federation);
  registerInboxListeners(federation);

  // Remote servers offer "follow from your server" through this template (Mastodon has it too).
  federation.setWebFingerLinksDispatcher((ctx) => [
    {
      rel: "http://ostatus.org/schema/1.0/subscribe",
      template: `${ctx.data.config.baseUrl}/authorize_interaction?uri={uri}`,
    },
  ]);

  return federation;
}

/**
 * Fedify refuses `allowPrivateAddress` and `userAgent` beside custom loaders, but still reads
 * them where it fetches with the global `fetch`: WebFinger lookups (`lookupObject` falls back to
 * one), NodeInfo, and the User-Agent of deliveries. Those requests run inside Gannet's requests
 * and jobs, where the global `fetch` is the guarded client (lib/net/scoped-fetch.ts), which lets
 * through exactly the addresses ALLOWED_PRIVATE_ADDRESSES lists. Fedify's own all-or-nothing
 * switch stays off, so a fetch made outside such a scope still reaches no private address;
 * Gannet's own WebFinger (resolve/webfinger.ts) is the one that reaches the listed ones.
 */
function allowFedifyOwnFetches(federation: Federation<AppContext>, app: AppContext): void {
  const fields = federation as unknown as { allowPrivateAddress?: unknown; userAgent?: unknown };
  if (typeof fields.allowPrivateAddress !== "boolean") {
    throw new Error("Fedify's federation object changed: allowPrivateAddress is not where Gannet sets it");
  }
  fields.allowPrivateAddress = false;
  fields.userAgent = { software: "Gannet/0.1.0", url: new URL(app.config.baseUrl) };
}
