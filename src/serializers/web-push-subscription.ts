import type { PushSubscription } from "../db/repositories/push-subscriptions.ts";
import { NOTIFICATION_TYPES } from "../services/notifications/types.ts";

/** Mastodon's WebPushSubscription entity: every type the server notifies about, on or off. */
export function serializeWebPushSubscription(sub: PushSubscription, serverKey: string): Record<string, unknown> {
  return {
    id: sub.id,
    endpoint: sub.endpoint,
    standard: sub.standard,
    alerts: Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, sub.alerts.includes(t)])),
    server_key: serverKey,
    policy: sub.policy,
  };
}
