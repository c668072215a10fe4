/**
 * The web client's pages' renderer (docs/web-client-pages.md): grouped notifications, profiles,
 * account lists, conversations, hashtags and threads, from the JSON the API answers. As
 * client/render.ts, these functions run on the server (first render) and in the browser
 * (`/assets/client-pages.js` carries their source text): self-contained, no module-level
 * values, only each other, render.ts's functions (globals in the browser) and the standard
 * library. Every export of this module must be such a function.
 *
 * Markup contract:
 * - a notification group is `<li class="notification" data-id="MOST_RECENT_ID" data-group-key="KEY"
 *   data-type="TYPE">`, with the class `unread` when newer than the `notifications` marker;
 * - a follow request carries `<button data-follow-request="authorize|reject" data-account-id>`;
 * - profile buttons carry `data-account-action` (`follow`, `unfollow`, `mute`, `unmute`, `block`,
 *   `unblock`, `report`) and `data-account-id`;
 * - a conversation is `<li class="conversation" data-id="ID">` (`unread` class while unread), its
 *   link `a[data-conversation-id]`.
 */
import {
  accountLine,
  accountPath,
  type ClientView,
  emojify,
  esc,
  lbl,
  nameOf,
  plural,
  type RAccount,
  type RStatus,
  renderStatus,
  statusPath,
  timeTag,
} from "./render.ts";

/** An account with what a profile shows. */
export interface RProfile extends RAccount {
  header?: string;
  header_static?: string;
  created_at?: string;
  fields?: { name: string; value: string; verified_at: string | null }[];
}

/** A Relationship (the fields the pages read). */
export interface RRelationship {
  id: string;
  following?: boolean;
  requested?: boolean;
  followed_by?: boolean;
  blocking?: boolean;
  blocked_by?: boolean;
  muting?: boolean;
}

/** A NotificationGroup (v2), with what its type carries. */
export interface RGroup {
  group_key: string;
  type: string;
  notifications_count: number;
  most_recent_notification_id: string;
  latest_page_notification_at?: string;
  page_min_id?: string;
  sample_account_ids: string[];
  status_id?: string;
  report?: { id: string; comment?: string; target_account: RAccount };
  moderation_warning?: { id: string; action: string; text: string; status_ids?: string[] | null };
  event?: { target_name: string; followers_count: number; following_count: number };
}

/** GroupedNotificationsResults (v2). */
export interface RGrouped {
  accounts: RAccount[];
  statuses: RStatus[];
  notification_groups: RGroup[];
}

/** A v1 Notification (what the streaming API sends). */
export interface RNotification {
  id: string;
  type: string;
  group_key?: string;
  created_at: string;
  account: RAccount;
  status?: RStatus | null;
  report?: RGroup["report"];
  moderation_warning?: RGroup["moderation_warning"];
  event?: RGroup["event"];
}

export interface RConversation {
  id: string;
  unread: boolean;
  accounts: RAccount[];
  last_status: RStatus | null;
}

export interface RTag {
  name: string;
  url?: string;
}

/** Whether snowflake id `a` is newer than `b` (an absent `b` is older than anything). */
export function isNewerId(a: string, b: string | null | undefined): boolean {
  if (!b) return true;
  if (a.length !== b.length) return a.length > b.length;
  return a > b;
}

/** A label with `{slot}` placeholders filled with ready HTML (the label's own text is escaped). */
export function lblHtml(v: ClientView, key: string, slots: Record<string, string>): string {
  return lbl(v, key).replace(/\{(\w+)\}/g, (m, name) => (name in slots ? slots[name] : m));
}

/** An account's name, linked to its profile. */
export function nameLink(a: RAccount): string {
  return `<a class="name" href="${esc(accountPath(a))}"><bdi>${nameOf(a)}</bdi></a>`;
}

/** "Alice", or "Alice and N others" for a group of several. */
export function groupWho(first: RAccount | undefined, count: number, v: ClientView): string {
  const name = first ? nameLink(first) : "";
  if (count <= 1) return name;
  return lblHtml(v, `client.pages.and_others.${count - 1 === 1 ? "one" : "other"}`, {
    name,
    count: esc(count - 1),
  });
}

/**
 * One notification group as a list item: its sentence, the accounts of a group, and what its type
 * carries (the post, follow request buttons, the report, the warning, the severed relationships).
 */
export function renderNotificationGroup(
  g: RGroup,
  accounts: Record<string, RAccount>,
  statuses: Record<string, RStatus>,
  v: ClientView,
  lastReadId: string | null | undefined,
): string {
  const sample = g.sample_account_ids.map((id) => accounts[id]).filter((a) => !!a);
  const first = sample[0];
  const status = g.status_id ? statuses[g.status_id] : undefined;
  if (g.status_id && !status) return "";
  const who = groupWho(first, g.notifications_count, v);
  const type = g.type;
  let sentence: string;
  let extra = "";
  if (type === "poll") {
    sentence = lbl(v, status && status.account.id === v.me ? "client.pages.n.poll_own" : "client.pages.n.poll");
  } else if (type === "admin.report" && g.report) {
    sentence = lblHtml(v, "client.pages.n.admin.report", { who, target: nameLink(g.report.target_account) });
    extra = `${g.report.comment ? `<p class="report-comment">${lbl(v, "client.pages.report_comment", { comment: g.report.comment })}</p>` : ""}<p><a href="/admin/reports/${esc(encodeURIComponent(g.report.id))}">${lbl(v, "client.pages.open_report")}</a></p>`;
  } else if (type === "severed_relationships" && g.event) {
    sentence = lbl(v, "client.pages.n.severed_relationships", {
      target: g.event.target_name,
      followers: g.event.followers_count,
      following: g.event.following_count,
    });
  } else if (type === "moderation_warning" && g.moderation_warning) {
    const w = g.moderation_warning;
    sentence = lbl(v, "client.pages.n.moderation_warning", { action: lbl(v, `client.pages.warning.${w.action}`) });
    const posts = (w.status_ids ?? [])
      .map((id) => `<li><a href="${esc(statusPath({ id }))}">${esc(id)}</a></li>`)
      .join("");
    extra = `${w.text ? `<blockquote class="warning-text">${esc(w.text)}</blockquote>` : ""}${posts ? `<p>${lbl(v, "client.pages.warning_posts")}</p><ul class="warning-posts">${posts}</ul>` : ""}<p><a class="warning-link" href="/about">${lbl(v, "client.pages.warning_rules")}</a></p>`;
  } else if (
    [
      "mention",
      "status",
      "reblog",
      "favourite",
      "follow",
      "follow_request",
      "update",
      "admin.sign_up",
      "quote",
      "quoted_update",
    ].includes(type)
  ) {
    sentence = lblHtml(v, `client.pages.n.${type}`, { who });
  } else {
    sentence = lblHtml(v, "client.pages.n.other", { who, type: esc(type) });
  }
  if (type === "follow_request" && first) {
    extra = `${accountLine(first, 46)}<p class="follow-request-actions"><button type="button" data-follow-request="authorize" data-account-id="${esc(first.id)}">${lbl(v, "client.pages.accept")}</button> <button type="button" data-follow-request="reject" data-account-id="${esc(first.id)}">${lbl(v, "client.pages.reject")}</button></p>`;
  } else if ((type === "follow" || type === "admin.sign_up") && sample.length > 0) {
    extra =
      sample.length === 1
        ? accountLine(sample[0], 46)
        : `<ul class="group-avatars">${sample
            .slice(0, 8)
            .map(
              (a) =>
                `<li><a href="${esc(accountPath(a))}" title="@${esc(a.acct)}"><img class="avatar" src="${esc(a.avatar)}" alt="${esc(a.display_name || a.username)}" width="32" height="32" loading="lazy"></a></li>`,
            )
            .join("")}</ul>`;
  } else if ((type === "favourite" || type === "reblog") && sample.length > 1) {
    extra = `<ul class="group-avatars">${sample
      .slice(0, 8)
      .map(
        (a) =>
          `<li><a href="${esc(accountPath(a))}" title="@${esc(a.acct)}"><img class="avatar" src="${esc(a.avatar)}" alt="${esc(a.display_name || a.username)}" width="32" height="32" loading="lazy"></a></li>`,
      )
      .join("")}</ul>`;
  }
  const post = status ? renderStatus(status, v) : "";
  if (status && !post) return "";
  const unread = isNewerId(g.most_recent_notification_id, lastReadId);
  const at = g.latest_page_notification_at;
  const time = at ? timeTag(at, status ? statusPath(status) : first ? accountPath(first) : "/notifications") : "";
  const mark = unread ? `<span class="unread-mark">${lbl(v, "client.pages.unread")}</span>` : "";
  return `<li class="notification notification-${esc(type.replace(/\./g, "-"))}${unread ? " unread" : ""}" data-id="${esc(g.most_recent_notification_id)}" data-group-key="${esc(g.group_key)}" data-type="${esc(type)}" data-count="${esc(g.notifications_count)}"><p class="notification-head"><span class="notification-icon" aria-hidden="true"></span><span class="notification-text">${sentence}</span> ${mark}${time}</p>${extra}${post ? `<div class="notification-status">${post}</div>` : ""}</li>`;
}

/** The groups of a GroupedNotificationsResults as list items (or the empty message). */
export function renderNotificationGroups(
  res: RGrouped,
  v: ClientView,
  lastReadId: string | null | undefined,
  emptyIfNone: boolean,
): string {
  const accounts: Record<string, RAccount> = {};
  for (const a of res.accounts) accounts[a.id] = a;
  const statuses: Record<string, RStatus> = {};
  for (const s of res.statuses) statuses[s.id] = s;
  const items = res.notification_groups
    .map((g) => renderNotificationGroup(g, accounts, statuses, v, lastReadId))
    .join("");
  return items || (emptyIfNone ? `<li class="empty">${lbl(v, "client.empty")}</li>` : "");
}

/** A v1 notification (from the streaming API) as a GroupedNotificationsResults of one group. */
export function notificationAsGrouped(n: RNotification): RGrouped {
  const g: RGroup = {
    group_key: n.group_key || `ungrouped-${n.id}`,
    type: n.type,
    notifications_count: 1,
    most_recent_notification_id: n.id,
    latest_page_notification_at: n.created_at,
    sample_account_ids: [n.account.id],
  };
  if (n.status) g.status_id = n.status.id;
  if (n.report) g.report = n.report;
  if (n.moderation_warning) g.moderation_warning = n.moderation_warning;
  if (n.event) g.event = n.event;
  return { accounts: [n.account], statuses: n.status ? [n.status] : [], notification_groups: [g] };
}

/** The buttons of a profile for the viewer, with the relationship's state. */
export function accountButtons(a: RAccount, rel: RRelationship | undefined, v: ClientView): string {
  if (a.id === v.me) {
    return `<a class="button" href="/settings/profile">${lbl(v, "client.pages.edit_profile")}</a>`;
  }
  const r = rel ?? { id: a.id };
  const button = (action: string, pressed: boolean | null) =>
    `<button type="button" class="account-action account-action-${action}" data-account-action="${action}" data-account-id="${esc(a.id)}" data-acct="${esc(a.acct)}"${pressed === null ? "" : ` aria-pressed="${pressed ? "true" : "false"}"`}>${lbl(v, `client.pages.${action === "unfollow" && r.requested && !r.following ? "cancel_request" : action}`)}</button>`;
  const follow = r.following || r.requested ? button("unfollow", true) : button("follow", false);
  const mute = r.muting ? button("unmute", true) : button("mute", false);
  const block = r.blocking ? button("unblock", true) : button("block", false);
  return `${r.blocking || r.blocked_by ? "" : follow} ${mute} ${block} ${button("report", null)}`;
}

/** The relationship's state as short badges ("Following", "Follows you", ...). */
export function relationshipBadges(rel: RRelationship | undefined, v: ClientView): string {
  if (!rel) return "";
  const states = [
    rel.following ? "following" : rel.requested ? "requested" : "",
    rel.followed_by ? "followed_by" : "",
    rel.muting ? "muting" : "",
    rel.blocking ? "blocking" : "",
    rel.blocked_by ? "blocked_by" : "",
  ].filter((x) => x !== "");
  return states
    .map((s) => `<span class="relationship-state state-${s}">${lbl(v, `client.pages.state.${s}`)}</span>`)
    .join(" ");
}

/** A profile's head: header image, avatar, names, relationship, buttons, note, fields and counts. */
export function renderProfile(a: RProfile, rel: RRelationship | undefined, v: ClientView): string {
  const path = accountPath(a);
  const header =
    a.header && !/\/missing\.png$|\/headers\/original\/missing/.test(a.header)
      ? `<img class="profile-banner" src="${esc(a.header)}" alt="" loading="lazy">`
      : `<div class="profile-banner empty"></div>`;
  const fields = (a.fields ?? [])
    .map(
      (f) =>
        `<div class="field${f.verified_at ? " verified" : ""}"><dt>${emojify(esc(f.name), a.emojis)}</dt><dd>${emojify(f.value, a.emojis)}${f.verified_at ? ` <span class="verified-mark" title="${lbl(v, "client.pages.verified")}">${lbl(v, "client.pages.verified")}</span>` : ""}</dd></div>`,
    )
    .join("");
  const flags = `${a.locked ? ` <span class="flag">${lbl(v, "client.pages.locked")}</span>` : ""}${a.bot ? ` <span class="flag">${lbl(v, "client.pages.bot")}</span>` : ""}`;
  const counts = `<ul class="profile-counts"><li><a href="${esc(path)}">${plural(v, "client.pages.posts_count", a.statuses_count ?? 0)}</a></li><li><a href="${esc(path)}/following">${lbl(v, "client.pages.following_count", { count: a.following_count ?? 0 })}</a></li><li><a href="${esc(path)}/followers">${plural(v, "client.pages.followers_count", a.followers_count ?? 0)}</a></li></ul>`;
  return `<div class="profile" data-account-id="${esc(a.id)}">${header}<div class="profile-head"><img class="avatar" src="${esc(a.avatar)}" alt="" width="96" height="96"><div class="profile-names"><h2><bdi>${nameOf(a)}</bdi></h2><p class="acct">@${esc(a.acct)}${flags}</p><p class="relationship">${relationshipBadges(rel, v)}</p></div><div class="profile-actions">${accountButtons(a, rel, v)}</div></div>${a.note ? `<div class="note">${emojify(a.note, a.emojis)}</div>` : ""}${fields ? `<dl class="fields">${fields}</dl>` : ""}${counts}</div>`;
}

/** Accounts as list items (avatar, names, note), or the empty message. */
export function renderAccounts(list: RAccount[], v: ClientView): string {
  const items = list.map((a) => `<li class="account" data-id="${esc(a.id)}">${accountLine(a, 46)}</li>`).join("");
  return items || `<li class="empty">${lbl(v, "client.empty")}</li>`;
}

/** Hashtags as list items linking to their timelines. */
export function renderTags(list: RTag[], v: ClientView): string {
  const items = list
    .map((t) => `<li class="hashtag"><a href="/web/tags/${esc(encodeURIComponent(t.name))}">#${esc(t.name)}</a></li>`)
    .join("");
  return items || `<li class="empty">${lbl(v, "client.empty")}</li>`;
}

/** Direct conversations as list items: who, the last post, a link to the thread. */
export function renderConversations(list: RConversation[], v: ClientView): string {
  const items = list
    .map((c) => {
      const names = c.accounts.map((a) => nameLink(a)).join(", ");
      const post = c.last_status ? renderStatus(c.last_status, v) : "";
      const open = c.last_status
        ? `<p><a class="open-conversation" href="${esc(statusPath(c.last_status))}" data-conversation-id="${esc(c.id)}">${lbl(v, "client.pages.open_conversation")}</a></p>`
        : "";
      return `<li class="conversation${c.unread ? " unread" : ""}" data-id="${esc(c.id)}"${c.last_status ? ` data-status-id="${esc(c.last_status.id)}"` : ""}><p class="participants">${c.unread ? `<span class="unread-mark">${lbl(v, "client.pages.unread")}</span> ` : ""}${lblHtml(v, "client.pages.with", { names })}</p>${post}${open}</li>`;
    })
    .join("");
  return items || `<li class="empty">${lbl(v, "client.pages.no_conversations")}</li>`;
}

/** A thread: the ancestors, the post (highlighted), the descendants indented by depth. */
export function renderThread(ancestors: RStatus[], focus: RStatus, descendants: RStatus[], v: ClientView): string {
  const depth: Record<string, number> = {};
  depth[focus.id] = 0;
  const item = (s: RStatus, cls: string, extra: string) => {
    const h = renderStatus(s, v);
    return h ? `<li data-id="${esc(s.id)}" class="${cls}"${extra}>${h}</li>` : "";
  };
  const above = ancestors.map((s) => item(s, "ancestor", "")).join("");
  const main = item(focus, "focus", ' aria-current="page"');
  const below = descendants
    .map((s) => {
      const parent = s.in_reply_to_id ? depth[s.in_reply_to_id] : undefined;
      const d = parent === undefined ? 1 : parent + 1;
      depth[s.id] = d;
      return item(s, `descendant depth-${Math.min(d, 5)}`, "");
    })
    .join("");
  return `${above}${main}${below}`;
}
