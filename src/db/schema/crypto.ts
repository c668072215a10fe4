import type { Timestamp } from "./common.ts";

// Table types: end-to-end encryption (migration 0044).

export interface DevicesTable {
  id: string;
  access_token_id: string;
  account_id: string;
  device_id: string;
  name: string;
  fingerprint_key: string;
  identity_key: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OneTimeKeysTable {
  id: string;
  /** The device row (`devices.id`). */
  device_id: string;
  key_id: string;
  key: string;
  signature: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EncryptedMessagesTable {
  id: string;
  /** The recipient's device row (`devices.id`). */
  device_id: string;
  from_account_id: string;
  from_device_id: string;
  type: number;
  body: string;
  digest: string;
  message_franking: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
