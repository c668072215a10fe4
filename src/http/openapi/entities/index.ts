/**
 * STUB: the entities branch replaces this file with the zod schemas of Gannet's Mastodon entities.
 * Only the contract is kept here: JSON Schemas keyed by entity name, and the names.
 */

const loose = { type: "object", additionalProperties: true };

const STUB: Record<string, object> = {
  Account: { type: "object", properties: { id: { type: "string" }, acct: { type: "string" } }, required: ["id"] },
  Status: {
    type: "object",
    properties: { id: { type: "string" }, account: { $ref: "#/components/schemas/Account" } },
    required: ["id"],
  },
  Relationship: {},
  Notification: {},
  MediaAttachment: {},
  Poll: {},
  List: {},
  Filter: {},
  FilterV1: {},
  Instance: {},
  InstanceV1: {},
  Tag: {},
  Conversation: {},
  Marker: {},
  Announcement: {},
  Context: {},
  Search: {},
  Token: {},
  Application: {},
  CredentialApplication: {},
  Report: {},
  ScheduledStatus: {},
  StatusEdit: {},
  StatusSource: {},
  Translation: {},
  WebPushSubscription: {},
  FeaturedTag: {},
  CustomEmoji: {},
  Preferences: {},
  DomainBlock: {},
  FamiliarFollowers: {},
  Suggestion: {},
  GroupedNotificationsResults: {},
  NotificationPolicy: {},
  NotificationRequest: {},
  AdminAccount: {},
  AdminReport: {},
  Role: {},
  Rule: {},
  ExtendedDescription: {},
  NodeInfo: {},
  CredentialAccount: {},
  MutedAccount: {},
  DomainBlockPreview: {},
  FilterKeyword: {},
  FilterStatus: {},
  PreviewCard: {},
  PrivacyPolicy: {},
  TermsOfService: {},
  Activity: {},
  Language: {},
  Markers: {},
  UnreadCount: {},
  OAuthServerMetadata: {},
  OAuthUserInfo: {},
  NodeInfoLinks: {},
  Error: { type: "object", properties: { error: { type: "string" } }, required: ["error"] },
};

export const entityNames: readonly string[] = Object.keys(STUB);

export function entityComponents(): Record<string, object> {
  return Object.fromEntries(Object.entries(STUB).map(([k, v]) => [k, { ...loose, ...v }]));
}
