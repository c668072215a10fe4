import type { DbBool, Timestamp } from "./common.ts";

// Table types: Web Push subscriptions (migration 0028).

export interface WebPushSubscriptionsTable {
  id: string;
  access_token_id: string;
  account_id: string;
  endpoint: string;
  key_p256dh: string;
  key_auth: string;
  standard: DbBool;
  /** JSON array of the notification types pushed. */
  alerts: string;
  /** `all`, `followed`, `follower` or `none`. */
  policy: string;
  /** The access token, encrypted with the secret key (the push payload carries it). */
  token_box: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
