/**
 * Event-bus channels of the streaming API, and what travels on them.
 *
 * Channel names (Mastodon's Redis names, so the shape is familiar):
 *
 * | channel                               | events                                                     |
 * |---------------------------------------|------------------------------------------------------------|
 * | `timeline:<accountId>`                | `update`, `delete`, `status.update` (home), `filters_changed`, `notifications_merged` |
 * | `timeline:<accountId>:notifications`  | `notification`                                             |
 * | `timeline:direct:<accountId>`         | `conversation`, `delete`                                   |
 * | `timeline:list:<listId>`              | `update`, `delete`, `status.update`                        |
 * | `timeline:public` (`:local`, `:remote`, each also `:media`) | `update`, `delete`, `status.update` |
 * | `timeline:hashtag:<lowercased name>` (and `…:local`) | `update`, `delete`, `status.update`         |
 * | `timeline:system:<accountId>`         | `filters_changed` (drops the streaming process's kept filters) |
 * | `timeline:access_token:<tokenId>`     | `kill` (the token was revoked: its streams close)          |
 * | `timeline:encrypted:<tokenId>`        | `encrypted_message` (to the token's end-to-end encryption device) |
 * | `announcements` (every `user` stream) | `announcement`, `announcement.reaction`, `announcement.delete` |
 *
 * Payloads are small and serialisable (ids, never rendered JSON): each streaming process renders
 * an event for each of its subscribers as that subscriber may see it (`src/http/streaming/`).
 * `update` and `status.update` carry `{ id }` (the status), `notification` `{ id }` (the
 * notification), `conversation` `{ id }` (the account conversation), `encrypted_message` `{ id }` (the
 * message), `delete` the status id as a
 * string, `filters_changed`, `notifications_merged` and `kill` null. Any other event (announcements) is
 * relayed to `user` subscribers as published: a string as it is, anything else as JSON text.
 *
 * Everything here is published after the writing transaction committed.
 */
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";

const logger = getLogger(["gannet", "streaming"]);

export const userChannel = (accountId: string): string => `timeline:${accountId}`;
export const notificationsChannel = (accountId: string): string => `timeline:${accountId}:notifications`;
export const directChannel = (accountId: string): string => `timeline:direct:${accountId}`;
export const listChannel = (listId: string): string => `timeline:list:${listId}`;
export const systemChannel = (accountId: string): string => `timeline:system:${accountId}`;
export const accessTokenChannel = (tokenId: string): string => `timeline:access_token:${tokenId}`;
/**
 * Mastodon names it `timeline:<accountId>:<deviceId>`; the device id is the client's own string
 * (a device named `notifications` would share a channel), so here it is the token's.
 */
export const encryptedMessagesChannel = (tokenId: string): string => `timeline:encrypted:${tokenId}`;
export const hashtagChannel = (name: string, local: boolean): string =>
  `timeline:hashtag:${normalizeTagName(name)}${local ? ":local" : ""}`;

/** `timeline:public`, `timeline:public:local` or `:remote`, with `:media` for media-only streams. */
export function publicChannel(scope: "all" | "local" | "remote", onlyMedia: boolean): string {
  const base = scope === "all" ? "timeline:public" : `timeline:public:${scope}`;
  return onlyMedia ? `${base}:media` : base;
}

/** A hashtag as the channel names it: no `#`, normalised as tags are stored (lib/text/hashtag-name.ts). */
export function normalizeTagName(name: string): string {
  return normalizeHashtag(name.trim().replace(/^#/, ""));
}

export interface IdPayload {
  id: string;
}

export const isIdPayload = (p: unknown): p is IdPayload =>
  typeof p === "object" && p !== null && typeof (p as { id?: unknown }).id === "string";

/**
 * Publishes one event on many channels, skipping those nobody listens to (one question to the
 * bus instead of a message per follower). A bus that fails is logged, never thrown: what was
 * published about has committed, and a stream missing an event must not fail the request.
 */
export async function publishAll(ctx: AppContext, channels: Iterable<string>, event: string, payload: unknown) {
  try {
    let list = [...new Set(channels)];
    if (list.length > 1) {
      const listened = await ctx.bus.listened(list);
      list = list.filter((c) => listened.has(c));
    }
    for (const channel of list) await ctx.bus.publish(channel, event, payload);
  } catch (error) {
    logger.error("Publishing {event} for streaming failed: {error}", { event, error });
  }
}
