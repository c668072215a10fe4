import type { DbBool, Generated, Nullable, Timestamp } from "./common.ts";

// Table types: moderation (migration 0034).

/** One moderation action; rows are only ever inserted. */
export interface AdminActionLogsTable {
  id: string;
  /** Who acted; null for the `gannet` command. */
  account_id: Nullable<string>;
  /** `suspend`, `create`, `approve`, ... (Mastodon's action names). */
  action: string;
  /** `Account`, `DomainBlock`, `IpBlock`, ... (Mastodon's target types). */
  target_type: string;
  target_id: Nullable<string>;
  human_identifier: Nullable<string>;
  summary: string;
  created_at: Timestamp;
}

export interface AccountWarningPresetsTable {
  id: string;
  title: Generated<string>;
  text: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountWarningsTable {
  id: string;
  account_id: Nullable<string>;
  target_account_id: string;
  action: string;
  text: Generated<string>;
  /** JSON array of status ids. */
  status_ids: Generated<string>;
  report_id: Nullable<string>;
  overruled_at: Nullable<Timestamp>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EmailDomainBlocksTable {
  id: string;
  domain: string;
  allow_with_approval: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One sign-up an e-mail domain block caught (migration 0039), for the block's history. */
export interface EmailDomainBlockAttemptsTable {
  email_domain_block_id: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  ip: string;
  created_at: Timestamp;
}

export interface CanonicalEmailBlocksTable {
  id: string;
  canonical_email_hash: string;
  reference_account_id: Nullable<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IpBlocksTable {
  id: string;
  /** CIDR in canonical form. */
  ip: string;
  severity: string;
  comment: Generated<string>;
  expires_at: Nullable<Timestamp>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserIpsTable {
  user_id: string;
  ip: string;
  used_at: Timestamp;
}

export interface RelationshipSeveranceEventsTable {
  id: string;
  type: string;
  target_name: string;
  purged: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SeveredRelationshipsTable {
  id: string;
  relationship_severance_event_id: string;
  local_account_id: string;
  remote_acct: string;
  remote_uri: string;
  /** `active`: the local account followed the remote one; `passive`: it was followed. */
  direction: string;
  show_reblogs: Generated<DbBool>;
  notify: Generated<DbBool>;
  languages: Nullable<string>;
  created_at: Timestamp;
}

export interface AccountRelationshipSeveranceEventsTable {
  id: string;
  account_id: string;
  relationship_severance_event_id: string;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  created_at: Timestamp;
}
