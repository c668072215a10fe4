import type { ColumnType } from "kysely";
import type {
  AccountsTable,
  OAuthAccessGrantsTable,
  OAuthAccessTokensTable,
  OAuthApplicationsTable,
  UserRolesTable,
  UsersTable,
} from "./schema/accounts.ts";
import type {
  AnnouncementMutesTable,
  AnnouncementReactionsTable,
  AnnouncementsTable,
  BusListenersTable,
  BusPayloadsTable,
} from "./schema/announcements.ts";
import type { PreviewCardsStatusesTable, PreviewCardsTable } from "./schema/cards.ts";
import type { DevicesTable, EncryptedMessagesTable, OneTimeKeysTable } from "./schema/crypto.ts";
import type { AccountMigrationsTable, BackupsTable, BulkImportRowsTable, BulkImportsTable } from "./schema/data.ts";
import type {
  PreviewCardProvidersTable,
  QuotesTable,
  TrendLinksTable,
  TrendStatusesTable,
  TrendTagsTable,
} from "./schema/discovery.ts";
import type {
  AccountRelationshipSeveranceEventsTable,
  AccountWarningPresetsTable,
  AccountWarningsTable,
  AdminActionLogsTable,
  CanonicalEmailBlocksTable,
  EmailDomainBlockAttemptsTable,
  EmailDomainBlocksTable,
  IpBlocksTable,
  RelationshipSeveranceEventsTable,
  SeveredRelationshipsTable,
  UserIpsTable,
} from "./schema/moderation.ts";
import type {
  AccountConversationStatusesTable,
  AccountConversationsTable,
  MarkersTable,
  NotificationPermissionsTable,
  NotificationPoliciesTable,
  NotificationRequestsTable,
  NotificationsTable,
} from "./schema/notifications.ts";
import type { WebPushSubscriptionsTable } from "./schema/push.ts";
import type {
  RecoveryCodesTable,
  UserSecondFactorsTable,
  WebauthnCredentialsTable,
  WebSessionsTable,
} from "./schema/security.ts";
import type { JobsTable, KvStoreTable, RulesTable, SchedulerLeasesTable, SiteSettingsTable } from "./schema/site.ts";
import type {
  AccountDomainBlocksTable,
  AccountNotesTable,
  AccountPairTable,
  BlocksTable,
  DeliveryHealthTable,
  DomainAllowsTable,
  FeaturedTagsTable,
  FilterKeywordsTable,
  FilterStatusesTable,
  FiltersTable,
  FollowRequestsTable,
  FollowsTable,
  InstanceDomainBlocksTable,
  ListAccountsTable,
  ListFeedsTable,
  ListsTable,
  MutesTable,
  ReportNotesTable,
  ReportsTable,
  TagFollowsTable,
} from "./schema/social.ts";
import type {
  AccountStatusTable,
  ConversationMutesTable,
  CustomEmojisTable,
  FeedsTable,
  MediaAttachmentsTable,
  MentionsTable,
  PollsTable,
  PollVotesTable,
  ScheduledStatusesTable,
  StatusEditsTable,
  StatusesTable,
  StatusesTagsTable,
  TagsTable,
} from "./schema/statuses.ts";

export type {
  AccountsTable,
  OAuthAccessGrantsTable,
  OAuthAccessTokensTable,
  OAuthApplicationsTable,
  UserRolesTable,
  UsersTable,
} from "./schema/accounts.ts";
export type {
  AnnouncementMutesTable,
  AnnouncementReactionsTable,
  AnnouncementsTable,
  BusListenersTable,
  BusPayloadsTable,
} from "./schema/announcements.ts";
export type { PreviewCardsStatusesTable, PreviewCardsTable } from "./schema/cards.ts";
export type { DbBool, Generated, Nullable, Timestamp } from "./schema/common.ts";
export type { DevicesTable, EncryptedMessagesTable, OneTimeKeysTable } from "./schema/crypto.ts";
export type {
  AccountMigrationsTable,
  BackupsTable,
  BulkImportRowsTable,
  BulkImportsTable,
} from "./schema/data.ts";
export type {
  AccountRelationshipSeveranceEventsTable,
  AccountWarningPresetsTable,
  AccountWarningsTable,
  AdminActionLogsTable,
  CanonicalEmailBlocksTable,
  EmailDomainBlockAttemptsTable,
  EmailDomainBlocksTable,
  IpBlocksTable,
  RelationshipSeveranceEventsTable,
  SeveredRelationshipsTable,
  UserIpsTable,
} from "./schema/moderation.ts";
export type {
  AccountConversationStatusesTable,
  AccountConversationsTable,
  MarkersTable,
  NotificationPermissionsTable,
  NotificationPoliciesTable,
  NotificationPolicyValue,
  NotificationRequestsTable,
  NotificationsTable,
} from "./schema/notifications.ts";
export type { WebPushSubscriptionsTable } from "./schema/push.ts";
export type {
  RecoveryCodesTable,
  UserSecondFactorsTable,
  WebauthnCredentialsTable,
  WebSessionsTable,
} from "./schema/security.ts";
export type { JobsTable, KvStoreTable, RulesTable, SchedulerLeasesTable, SiteSettingsTable } from "./schema/site.ts";
export type {
  AccountDomainBlocksTable,
  AccountNotesTable,
  AccountPairTable,
  BlocksTable,
  DeliveryHealthTable,
  DomainAllowsTable,
  FeaturedTagsTable,
  FilterKeywordsTable,
  FilterStatusesTable,
  FiltersTable,
  FollowRequestsTable,
  FollowsTable,
  InstanceDomainBlocksTable,
  ListAccountsTable,
  ListFeedsTable,
  ListsTable,
  MutesTable,
  ReportNotesTable,
  ReportsTable,
  TagFollowsTable,
} from "./schema/social.ts";
export type {
  AccountStatusTable,
  ConversationMutesTable,
  CustomEmojisTable,
  FeedsTable,
  MediaAttachmentsTable,
  MentionsTable,
  PollsTable,
  PollVotesTable,
  ScheduledStatusesTable,
  StatusEditsTable,
  StatusesTable,
  StatusesTagsTable,
  TagsTable,
} from "./schema/statuses.ts";

/** The whole database, one entry per table; the table types live in `schema/`, by area. */
export interface DB {
  accounts: AccountsTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  oauth_applications: OAuthApplicationsTable;
  oauth_access_grants: OAuthAccessGrantsTable;
  oauth_access_tokens: OAuthAccessTokensTable;
  kv_store: KvStoreTable;
  site_settings: SiteSettingsTable;
  rules: RulesTable;
  media_attachments: MediaAttachmentsTable;
  jobs: JobsTable;
  scheduler_leases: SchedulerLeasesTable;
  statuses: StatusesTable;
  status_edits: StatusEditsTable;
  mentions: MentionsTable;
  tags: TagsTable;
  statuses_tags: StatusesTagsTable;
  favourites: AccountStatusTable;
  bookmarks: AccountStatusTable;
  status_pins: AccountStatusTable;
  conversation_mutes: ConversationMutesTable;
  follows: FollowsTable;
  follow_requests: FollowRequestsTable;
  feeds: FeedsTable;
  notifications: NotificationsTable;
  notification_policies: NotificationPoliciesTable;
  notification_requests: NotificationRequestsTable;
  notification_permissions: NotificationPermissionsTable;
  markers: MarkersTable;
  custom_emojis: CustomEmojisTable;
  polls: PollsTable;
  poll_votes: PollVotesTable;
  scheduled_statuses: ScheduledStatusesTable;
  blocks: BlocksTable;
  mutes: MutesTable;
  account_domain_blocks: AccountDomainBlocksTable;
  account_conversations: AccountConversationsTable;
  account_conversation_statuses: AccountConversationStatusesTable;
  lists: ListsTable;
  list_accounts: ListAccountsTable;
  list_feeds: ListFeedsTable;
  reports: ReportsTable;
  report_notes: ReportNotesTable;
  delivery_health: DeliveryHealthTable;
  tag_follows: TagFollowsTable;
  featured_tags: FeaturedTagsTable;
  account_pins: AccountPairTable;
  account_notes: AccountNotesTable;
  account_suggestion_dismissals: AccountPairTable;
  filters: FiltersTable;
  filter_keywords: FilterKeywordsTable;
  filter_statuses: FilterStatusesTable;
  /** Preview cards and the statuses showing them (migration 0027). */
  preview_cards: PreviewCardsTable;
  preview_cards_statuses: PreviewCardsStatusesTable;
  preview_card_providers: PreviewCardProvidersTable;
  trend_tags: TrendTagsTable;
  trend_statuses: TrendStatusesTable;
  trend_links: TrendLinksTable;
  quotes: QuotesTable;
  /** Instance-level domain blocks and allows (migration 0026). */
  domain_blocks: InstanceDomainBlocksTable;
  domain_allows: DomainAllowsTable;
  web_push_subscriptions: WebPushSubscriptionsTable;
  /** End-to-end encryption (migration 0044). */
  devices: DevicesTable;
  one_time_keys: OneTimeKeysTable;
  encrypted_messages: EncryptedMessagesTable;
  /** Import and export, account moves (migration 0048). */
  backups: BackupsTable;
  bulk_imports: BulkImportsTable;
  bulk_import_rows: BulkImportRowsTable;
  account_migrations: AccountMigrationsTable;
  /** Browser sessions and second factors (migration 0047). */
  web_sessions: WebSessionsTable;
  user_second_factors: UserSecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
  webauthn_credentials: WebauthnCredentialsTable;
  /** Changes that may make kept JSON stale, logged by triggers (migration 0024). */
  announcements: AnnouncementsTable;
  announcement_mutes: AnnouncementMutesTable;
  announcement_reactions: AnnouncementReactionsTable;
  bus_listeners: BusListenersTable;
  bus_payloads: BusPayloadsTable;
  /** Moderation (migration 0034). */
  admin_action_logs: AdminActionLogsTable;
  account_warning_presets: AccountWarningPresetsTable;
  account_warnings: AccountWarningsTable;
  email_domain_blocks: EmailDomainBlocksTable;
  /** Migration 0039. */
  email_domain_block_attempts: EmailDomainBlockAttemptsTable;
  canonical_email_blocks: CanonicalEmailBlocksTable;
  ip_blocks: IpBlocksTable;
  user_ips: UserIpsTable;
  relationship_severance_events: RelationshipSeveranceEventsTable;
  severed_relationships: SeveredRelationshipsTable;
  account_relationship_severance_events: AccountRelationshipSeveranceEventsTable;
  render_changes: { seq: ColumnType<string | number, never, never>; kind: string; key: string };
}
