import type { ColumnType } from "kysely";
import type { Timestamp } from "./common.ts";

// Table types: browser sessions and second factors (migration 0047).

export interface WebSessionsTable {
  id: string;
  user_id: string;
  session_hash: string;
  password_fingerprint: string;
  user_agent: string;
  ip: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserSecondFactorsTable {
  user_id: string;
  otp_secret: string | null;
  otp_pending_secret: string | null;
  otp_enabled_at: Timestamp | null;
  consumed_timestep: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: Timestamp;
}

export interface WebauthnCredentialsTable {
  id: string;
  user_id: string;
  external_id: string;
  public_key: string;
  nickname: string;
  /** bigint: PostgreSQL answers it as text. */
  sign_count: ColumnType<string | number, number, number>;
  transports: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_used_at: Timestamp | null;
}
