import type { Federation } from "@fedify/fedify";
import type { Redis } from "ioredis";
import type { Kysely } from "kysely";
import type { Config } from "./config/index.ts";
import { createDatabase, type Database, type DialectName } from "./db/database.ts";
import { AccountCurationRepository } from "./db/repositories/account-curation.ts";
import { AccountMigrationsRepository } from "./db/repositories/account-migrations.ts";
import { AccountModerationRepository } from "./db/repositories/account-moderation.ts";
import { AccountPurgeRepository } from "./db/repositories/account-purge.ts";
import { AccountWarningsRepository } from "./db/repositories/account-warnings.ts";
import { AccountsRepository } from "./db/repositories/accounts.ts";
import { AdminAccountsRepository } from "./db/repositories/admin-accounts.ts";
import { AdminActionLogsRepository } from "./db/repositories/admin-action-logs.ts";
import { AdminMetricsRepository } from "./db/repositories/admin-metrics.ts";
import { AdminTagsRepository } from "./db/repositories/admin-tags.ts";
import { AnnouncementsRepository } from "./db/repositories/announcements.ts";
import { AuthRepository } from "./db/repositories/auth.ts";
import { BackupsRepository } from "./db/repositories/backups.ts";
import { BulkImportsRepository } from "./db/repositories/bulk-imports.ts";
import { ConversationsRepository } from "./db/repositories/conversations.ts";
import { CryptoRepository } from "./db/repositories/crypto.ts";
import { CustomEmojisRepository } from "./db/repositories/custom-emojis.ts";
import { DataExportsRepository } from "./db/repositories/data-exports.ts";
import { DeliveryRepository } from "./db/repositories/delivery.ts";
import { DiscoveryRepository } from "./db/repositories/discovery.ts";
import { DomainBlocksRepository } from "./db/repositories/domain-blocks.ts";
import { FederationInstancesRepository } from "./db/repositories/federation-instances.ts";
import { FeedsRepository } from "./db/repositories/feeds.ts";
import { FiltersRepository } from "./db/repositories/filters.ts";
import { FollowPagesRepository } from "./db/repositories/follow-pages.ts";
import { FollowsRepository } from "./db/repositories/follows.ts";
import { InstanceRepository } from "./db/repositories/instance.ts";
import { InstanceDomainBlocksRepository } from "./db/repositories/instance-domain-blocks.ts";
import { JobsRepository } from "./db/repositories/jobs.ts";
import { KvRepository } from "./db/repositories/kv.ts";
import { ListsRepository } from "./db/repositories/lists.ts";
import { LocalActorsRepository, type StoredActorKeys } from "./db/repositories/local-actors.ts";
import { MarkersRepository } from "./db/repositories/markers.ts";
import { MediaRepository } from "./db/repositories/media.ts";
import { NotificationRequestsRepository } from "./db/repositories/notification-requests.ts";
import { NotificationsRepository } from "./db/repositories/notifications.ts";
import { OAuthRepository } from "./db/repositories/oauth.ts";
import { PollsRepository } from "./db/repositories/polls.ts";
import { PreviewCardsRepository } from "./db/repositories/preview-cards.ts";
import { PushSubscriptionsRepository } from "./db/repositories/push-subscriptions.ts";
import { QuoteFederationRepository } from "./db/repositories/quote-federation.ts";
import { QuotesRepository } from "./db/repositories/quotes.ts";
import { RelationshipsRepository } from "./db/repositories/relationships.ts";
import { RemoteMediaRepository } from "./db/repositories/remote-media.ts";
import { RenderChangesRepository } from "./db/repositories/render-changes.ts";
import { ReportsRepository } from "./db/repositories/reports.ts";
import { RolesRepository } from "./db/repositories/roles.ts";
import { ScheduledStatusesRepository } from "./db/repositories/scheduled-statuses.ts";
import { SearchRepository } from "./db/repositories/search.ts";
import { SecurityRepository } from "./db/repositories/security.ts";
import { SettingsRepository } from "./db/repositories/settings.ts";
import { SeveredRelationshipsRepository } from "./db/repositories/severed-relationships.ts";
import { SignUpBlocksRepository } from "./db/repositories/sign-up-blocks.ts";
import { StatusInteractionsRepository } from "./db/repositories/status-interactions.ts";
import { StatusPagesRepository } from "./db/repositories/status-pages.ts";
import { StatusesRepository } from "./db/repositories/statuses.ts";
import { StreamingRepository } from "./db/repositories/streaming.ts";
import { TagCurationRepository } from "./db/repositories/tag-curation.ts";
import { TrendReviewRepository } from "./db/repositories/trend-review.ts";
import { TrendsRepository } from "./db/repositories/trends.ts";
import { UsersRepository } from "./db/repositories/users.ts";
import { WebFeedsRepository } from "./db/repositories/web-feeds.ts";
import type { DB } from "./db/schema.ts";
import { FailureThrottle } from "./federation/inbox/failure-throttle.ts";
import { generateActorKeys } from "./federation/keys.ts";
import type { BlobStore } from "./infra/blobs/interface.ts";
import { LocalBlobStore, localMediaDir } from "./infra/blobs/local.ts";
import { connectChangeNotices } from "./infra/bus/change-notices.ts";
import { createEventBus, type EventBusKind } from "./infra/bus/create.ts";
import type { EventBus } from "./infra/bus/interface.ts";
import { DatabaseKvStore } from "./infra/kv/fedify-kv.ts";
import { createMailer, type Mailer } from "./infra/mailer/mailer.ts";
import { createJobQueue, type JobQueueSettings } from "./infra/queue/create.ts";
import type { JobQueue } from "./infra/queue/interface.ts";
import { MemoryRateLimitStore, type RateLimitStore, RedisRateLimitStore } from "./infra/rate-limit/store.ts";
import { IdGenerator } from "./lib/ids.ts";
import { createGuardedFetch, type GuardedFetch } from "./lib/net/guarded-fetch.ts";
import { flushDeliveryHealth } from "./services/federation/delivery-health.ts";
import { RoleCache } from "./services/roles/role-cache.ts";

export interface Repositories {
  accounts: AccountsRepository;
  announcements: AnnouncementsRepository;
  localActors: LocalActorsRepository;
  auth: AuthRepository;
  users: UsersRepository;
  roles: RolesRepository;
  oauth: OAuthRepository;
  settings: SettingsRepository;
  kv: KvRepository;
  instance: InstanceRepository;
  statuses: StatusesRepository;
  quotes: QuotesRepository;
  statusPages: StatusPagesRepository;
  webFeeds: WebFeedsRepository;
  statusInteractions: StatusInteractionsRepository;
  follows: FollowsRepository;
  followPages: FollowPagesRepository;
  feeds: FeedsRepository;
  media: MediaRepository;
  jobs: JobsRepository;
  notifications: NotificationsRepository;
  notificationRequests: NotificationRequestsRepository;
  markers: MarkersRepository;
  customEmojis: CustomEmojisRepository;
  polls: PollsRepository;
  scheduledStatuses: ScheduledStatusesRepository;
  relationships: RelationshipsRepository;
  domainBlocks: DomainBlocksRepository;
  /** Instance-level domain blocks and allows, and the federation policy they make. */
  instanceDomainBlocks: InstanceDomainBlocksRepository;
  /** The follows a domain suspension cut (Mastodon 4.3's severed relationships). */
  severedRelationships: SeveredRelationshipsRepository;
  /** What a purged remote account leaves on others' posts and in local notifications. */
  accountPurge: AccountPurgeRepository;
  search: SearchRepository;
  conversations: ConversationsRepository;
  lists: ListsRepository;
  reports: ReportsRepository;
  tagCuration: TagCurationRepository;
  accountCuration: AccountCurationRepository;
  discovery: DiscoveryRepository;
  /** Trend scores, ranks and the `allowed` switch (migration 0040). */
  trends: TrendsRepository;
  filters: FiltersRepository;
  renderChanges: RenderChangesRepository;
  previewCards: PreviewCardsRepository;
  remoteMedia: RemoteMediaRepository;
  pushSubscriptions: PushSubscriptionsRepository;
  /** End-to-end encryption: devices, one-time keys, encrypted messages (migration 0044). */
  crypto: CryptoRepository;
  delivery: DeliveryRepository;
  /** Known servers and their delivery health (the moderation panel). */
  federationInstances: FederationInstancesRepository;
  streaming: StreamingRepository;
  /** The moderation action log (migration 0034). */
  adminActionLogs: AdminActionLogsRepository;
  /** The admin dashboard's measures, dimensions and retention. */
  adminMetrics: AdminMetricsRepository;
  /** Tags as moderators list and switch them. */
  adminTags: AdminTagsRepository;
  /** The moderators' trend review: candidates, decisions, review notices. */
  trendReview: TrendReviewRepository;
  adminAccounts: AdminAccountsRepository;
  /** E-mail domain, canonical e-mail and IP blocks (migrations 0034, 0039). */
  signUpBlocks: SignUpBlocksRepository;
  /** Strikes against accounts and warning presets (migration 0034). */
  accountWarnings: AccountWarningsRepository;
  /** Reports, tokens and suspensions as account moderation reads and changes them. */
  accountModeration: AccountModerationRepository;
  /** Quote federation (FEP-044f): quotes by request or stamp, states with counts, quote policies. */
  quoteFederation: QuoteFederationRepository;
  /** The settings' exports (CSV and archive reads), archives, imports and moves (migration 0048). */
  dataExports: DataExportsRepository;
  backups: BackupsRepository;
  bulkImports: BulkImportsRepository;
  accountMigrations: AccountMigrationsRepository;
  /** Browser sessions, TOTP, recovery codes and security keys (migration 0047). */
  security: SecurityRepository;
}

/** Everything a request, job or command needs; built once per process (or per test server). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  dialect: DialectName;
  repos: Repositories;
  ids: IdGenerator;
  /** Redis pub/sub with REDIS_URL, else PostgreSQL LISTEN/NOTIFY with DATABASE_URL, else in-process. */
  bus: EventBus;
  busKind: EventBusKind;
  /** Background jobs: enqueue side effects after the transaction commits. */
  queue: JobQueue;
  blobs: BlobStore;
  mailer: Mailer;
  rateLimits: RateLimitStore;
  /** Failed inbox signatures per client IP (failure-throttle.ts): in memory, per process. */
  inboxThrottle: FailureThrottle;
  roles: RoleCache;
  /** New RSA and Ed25519 key pairs for a local account's actor (federation/keys.ts). */
  newActorKeys(): Promise<StoredActorKeys>;
  /** Outgoing HTTP that Fedify does not do itself: private addresses refused, sizes and times bounded. */
  guardedFetch: GuardedFetch;
  /**
   * The Fedify federation object, loaded on first use: Fedify and its vocabulary are the largest
   * part of Gannet's code, so a server nobody federates with yet does not pay for them.
   */
  federation(): Promise<Federation<AppContext>>;
  redis?: Redis;
  /** When the process started (ms), for instance stats. */
  startedAt: number;
  close(): Promise<void>;
}

export interface ContextOptions {
  /** PostgreSQL schema (tests give each server its own). */
  pgSchema?: string;
  /** SQLite file name inside DATA_DIR, or `:memory:`. */
  sqliteFile?: string;
  /** PostgreSQL commits do not wait for the disk (tests only; see DatabaseOptions). */
  pgAsyncCommit?: boolean;
  /** Job queue timing (tests poll often and retry fast). */
  queue?: JobQueueSettings;
  /**
   * Where new accounts' key pairs come from (default: generated, about 40 ms of CPU for RSA-2048).
   * Tests hand out pairs generated once per run, each to one account only (test/helpers/test-keys.ts).
   */
  actorKeys?: () => Promise<StoredActorKeys>;
  /**
   * Listen for other processes' change notices (PostgreSQL), so what the process reads may be
   * cached (default true). The `gannet` command, which writes and exits, only sends them.
   */
  listenForChanges?: boolean;
}

/** The composition root: opens the database, runs migrations and wires the adapters. */
export async function createContext(config: Config, opts: ContextOptions = {}): Promise<AppContext> {
  const database = createDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    pgSchema: opts.pgSchema,
    sqliteFile: opts.sqliteFile,
    pgAsyncCommit: opts.pgAsyncCommit,
    cacheMaxAgeMs: config.databaseCacheMaxAgeSeconds * 1000,
  });
  await database.migrate();
  const db = database.db;
  const quotes = new QuotesRepository(db);
  const repos: Repositories = {
    accounts: new AccountsRepository(db),
    announcements: new AnnouncementsRepository(db),
    localActors: new LocalActorsRepository(db),
    auth: new AuthRepository(db),
    users: new UsersRepository(db),
    roles: new RolesRepository(db),
    oauth: new OAuthRepository(db),
    settings: new SettingsRepository(db),
    kv: new KvRepository(db),
    instance: new InstanceRepository(db),
    statuses: new StatusesRepository(db),
    quotes,
    statusPages: new StatusPagesRepository(db),
    webFeeds: new WebFeedsRepository(db),
    statusInteractions: new StatusInteractionsRepository(db),
    follows: new FollowsRepository(db, database.dialect),
    followPages: new FollowPagesRepository(db),
    feeds: new FeedsRepository(db, database.dialect),
    media: new MediaRepository(db),
    jobs: new JobsRepository(db, database.dialect),
    notifications: new NotificationsRepository(db),
    notificationRequests: new NotificationRequestsRepository(db),
    markers: new MarkersRepository(db),
    customEmojis: new CustomEmojisRepository(db),
    polls: new PollsRepository(db, database.dialect),
    scheduledStatuses: new ScheduledStatusesRepository(db),
    relationships: new RelationshipsRepository(db),
    domainBlocks: new DomainBlocksRepository(db),
    instanceDomainBlocks: new InstanceDomainBlocksRepository(db, {
      limitedFederation: config.limitedFederationMode,
      stamp: () => database.domainPolicyStamp(),
    }),
    severedRelationships: new SeveredRelationshipsRepository(db),
    accountPurge: new AccountPurgeRepository(db),
    search: new SearchRepository(db, database.dialect),
    conversations: new ConversationsRepository(db),
    lists: new ListsRepository(db, database.dialect),
    reports: new ReportsRepository(db),
    tagCuration: new TagCurationRepository(db, database.dialect),
    accountCuration: new AccountCurationRepository(db),
    discovery: new DiscoveryRepository(db),
    trends: new TrendsRepository(db),
    filters: new FiltersRepository(db),
    renderChanges: new RenderChangesRepository(db),
    previewCards: new PreviewCardsRepository(db),
    remoteMedia: new RemoteMediaRepository(db),
    pushSubscriptions: new PushSubscriptionsRepository(db),
    crypto: new CryptoRepository(db, database.dialect),
    delivery: new DeliveryRepository(db),
    federationInstances: new FederationInstancesRepository(db),
    streaming: new StreamingRepository(db),
    adminActionLogs: new AdminActionLogsRepository(db),
    adminMetrics: new AdminMetricsRepository(db, database.dialect),
    adminTags: new AdminTagsRepository(db),
    trendReview: new TrendReviewRepository(db),
    adminAccounts: new AdminAccountsRepository(db),
    signUpBlocks: new SignUpBlocksRepository(db),
    accountWarnings: new AccountWarningsRepository(db),
    accountModeration: new AccountModerationRepository(db),
    quoteFederation: new QuoteFederationRepository(db, quotes),
    dataExports: new DataExportsRepository(db),
    backups: new BackupsRepository(db),
    bulkImports: new BulkImportsRepository(db),
    accountMigrations: new AccountMigrationsRepository(db),
    security: new SecurityRepository(db),
  };
  // ioredis is loaded only when Redis is configured.
  let redis: Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import("ioredis");
    redis = new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  }
  const { bus, kind: busKind } = await createEventBus({
    redis,
    redisNamespace: config.redisNamespace,
    database,
    databaseUrl: config.databaseUrl,
  });
  // PostgreSQL: writes are announced to the other processes, theirs counted (docs/scaling.md).
  connectChangeNotices(bus, database, opts.listenForChanges ?? true);
  const ids = new IdGenerator();
  const queue = await createJobQueue({
    context: () => ctx,
    ids,
    jobs: repos.jobs,
    redis,
    redisNamespace: config.redisNamespace,
    settings: opts.queue,
  });
  let federation: Promise<Federation<AppContext>> | undefined;
  const ctx: AppContext = {
    config,
    database,
    db,
    dialect: database.dialect,
    repos,
    ids,
    bus,
    busKind,
    queue,
    blobs: new LocalBlobStore(localMediaDir(config.dataDir), config.baseUrl),
    mailer: createMailer(config.smtp),
    rateLimits: redis ? new RedisRateLimitStore(redis, config.redisNamespace) : new MemoryRateLimitStore(),
    inboxThrottle: new FailureThrottle({
      limit: config.inboxFailureLimit,
      windowMs: config.inboxFailureWindowSeconds * 1000,
    }),
    roles: new RoleCache(repos.roles),
    newActorKeys: opts.actorKeys ?? generateActorKeys,
    guardedFetch: createGuardedFetch(config),
    federation: () => {
      federation ??= import("./federation/federation.ts").then((m) =>
        m.createGannetFederation(ctx, new DatabaseKvStore(repos.kv)),
      );
      return federation;
    },
    redis,
    startedAt: Date.now(),
    async close() {
      // Running jobs finish before the connections they use close.
      await queue.stop();
      // The delivery outcomes noted since the last write (services/federation/delivery-health.ts).
      await flushDeliveryHealth(ctx);
      // The last writes' change notices go out before the bus closes.
      await database.changes?.close();
      await bus.close();
      redis?.disconnect();
      await database.close();
    },
  };
  return ctx;
}
