import type { Account } from "../../db/repositories/accounts.ts";
import type { Notification } from "../../db/repositories/notifications.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { htmlToText } from "../../lib/text/html-text.ts";

/** What Mastodon's web push payload holds (its Web::NotificationSerializer), keys as it sends them. */
export interface PushPayload {
  access_token: string;
  preferred_locale: string;
  notification_id: string;
  notification_type: string;
  icon: string;
  title: string;
  body: string;
}

/** Titles as Mastodon's English notification subjects word them. */
const TITLES: Record<string, (name: string) => string> = {
  mention: (n) => `You were mentioned by ${n}`,
  status: (n) => `${n} just posted`,
  reblog: (n) => `${n} boosted your post`,
  follow: (n) => `${n} is now following you`,
  follow_request: (n) => `Pending follower: ${n}`,
  favourite: (n) => `${n} favorited your post`,
  poll: (n) => `A poll by ${n} has ended`,
  update: (n) => `${n} edited a post`,
  "admin.sign_up": (n) => `${n} signed up`,
  "admin.report": (n) => `New report from ${n}`,
};

/** Rails' `truncate(length: 140)`: at most 140 characters, the last three `...` when cut. */
function truncate(text: string, length = 140): string {
  const chars = [...text];
  return chars.length <= length ? text : `${chars.slice(0, length - 3).join("")}...`;
}

export function buildPushPayload(opts: {
  accessToken: string;
  locale: string;
  notification: Notification;
  from: Account;
  status: Status | null;
  icon: string;
}): PushPayload {
  const { notification, from, status } = opts;
  const name = from.displayName.trim() || from.username;
  const title = (TITLES[notification.type] ?? ((n: string) => n))(name);
  const source = status ? status.spoilerText.trim() || status.content : from.note;
  return {
    access_token: opts.accessToken,
    preferred_locale: opts.locale,
    notification_id: notification.id,
    notification_type: notification.type,
    icon: opts.icon,
    title,
    body: truncate(htmlToText(source)),
  };
}
