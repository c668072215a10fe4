import type { ColumnType, DbBool, Generated, Timestamp } from "./common.ts";

// Table types: Accounts, users, roles and OAuth.

export interface AccountsTable {
  id: string;
  username: string;
  /** null for local accounts. */
  domain: ColumnType<string | null, string | null | undefined, string | null>;
  display_name: Generated<string>;
  /** HTML (sanitised for remote accounts, rendered from `note_source` for local ones). */
  note: Generated<string>;
  note_source: Generated<string>;
  /** JSON: [{name, value, verified_at}] with `value` as HTML. */
  fields: Generated<string>;
  fields_source: Generated<string>;
  actor_type: Generated<string>;
  locked: Generated<DbBool>;
  discoverable: ColumnType<DbBool | null, DbBool | null | undefined, DbBool | null>;
  indexable: Generated<DbBool>;
  hide_collections: ColumnType<DbBool | null, DbBool | null | undefined, DbBool | null>;
  memorial: Generated<DbBool>;
  uri: string;
  url: ColumnType<string | null, string | null | undefined, string | null>;
  inbox_url: ColumnType<string | null, string | null | undefined, string | null>;
  outbox_url: ColumnType<string | null, string | null | undefined, string | null>;
  shared_inbox_url: ColumnType<string | null, string | null | undefined, string | null>;
  followers_url: ColumnType<string | null, string | null | undefined, string | null>;
  following_url: ColumnType<string | null, string | null | undefined, string | null>;
  featured_url: ColumnType<string | null, string | null | undefined, string | null>;
  featured_tags_url: ColumnType<string | null, string | null | undefined, string | null>;
  public_key_pem: ColumnType<string | null, string | null | undefined, string | null>;
  private_key_pem: ColumnType<string | null, string | null | undefined, string | null>;
  ed25519_public_key: ColumnType<string | null, string | null | undefined, string | null>;
  ed25519_private_key: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_path: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_remote_url: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  header_path: ColumnType<string | null, string | null | undefined, string | null>;
  header_remote_url: ColumnType<string | null, string | null | undefined, string | null>;
  header_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  also_known_as: Generated<string>;
  moved_to_account_id: ColumnType<string | null, string | null | undefined, string | null>;
  suspended_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  suspension_origin: ColumnType<string | null, string | null | undefined, string | null>;
  silenced_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  sensitized_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  statuses_count: Generated<number>;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  last_status_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  fetched_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** When a remote account's handle was last confirmed by WebFinger (migration 0026). */
  last_webfingered_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  encrypted_password: string;
  role_id: string;
  locale: string;
  confirmed_at: Timestamp | null;
  confirmation_token: string | null;
  confirmation_sent_at: Timestamp | null;
  unconfirmed_email: string | null;
  approved: DbBool;
  disabled: DbBool;
  reason: string | null;
  created_by_application_id: string | null;
  sign_up_ip: string | null;
  current_sign_in_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  /** SHA-256 of the password reset link's token (migration 0046). */
  reset_password_token: ColumnType<string | null, string | null | undefined, string | null>;
  reset_password_sent_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** JSON: privacy, sensitive, language, expand_media, expand_spoilers, ... */
  settings: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserRolesTable {
  id: string;
  name: string;
  color: string;
  /** Decimal bitmask (Mastodon's Role permissions). */
  permissions: number;
  position: number;
  highlighted: DbBool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OAuthApplicationsTable {
  id: string;
  name: string;
  website: string | null;
  /** Newline-separated. */
  redirect_uris: string;
  scopes: string;
  client_id: string;
  client_secret: string;
  superapp: DbBool;
  owner_account_id: string | null;
  /** The client secret encrypted with the server's key (apps made on the Development page only). */
  client_secret_box: Generated<string | null>;
  /** The owner's access token encrypted likewise ("Your access token" on the Development page). */
  owner_token_box: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OAuthAccessGrantsTable {
  id: string;
  application_id: string;
  user_id: string;
  /** SHA-256 of the code. */
  code_hash: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
}

export interface OAuthAccessTokensTable {
  id: string;
  application_id: string | null;
  /** null for app tokens (client_credentials). */
  user_id: string | null;
  /** SHA-256 of the token. */
  token_hash: string;
  scopes: string;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  created_at: Timestamp;
  /** The browser session a web client token was issued for (deleted with it); null otherwise. */
  web_session_id?: string | null;
}
