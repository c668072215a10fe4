/** The notification types are defined in lib/notification-types.ts (serializers use them too). */
export {
  isNotificationType,
  type KnownNotificationType,
  NOTIFICATION_TYPES,
  PUSH_ALERT_TYPES,
} from "../../lib/notification-types.ts";
