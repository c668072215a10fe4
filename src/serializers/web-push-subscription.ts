import { PUSH_ALERT_TYPES } from "../lib/notification-types.ts";

/** What the WebPushSubscription entity is made of (a subscription row has these and more). */
export interface WebPushSubscriptionView {
  id: string;
  endpoint: string;
  standard: boolean;
  /** The notification types pushed. */
  alerts: readonly string[];
  policy: string;
}

/** Mastodon's WebPushSubscription entity: every type the server notifies about, on or off. */
export function serializeWebPushSubscription(sub: WebPushSubscriptionView, serverKey: string): Record<string, unknown> {
  return {
    id: sub.id,
    endpoint: sub.endpoint,
    standard: sub.standard,
    alerts: Object.fromEntries(PUSH_ALERT_TYPES.map((t) => [t, sub.alerts.includes(t)])),
    server_key: serverKey,
    policy: sub.policy,
  };
}
