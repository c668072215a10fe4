import type { AppContext } from "../../context.ts";
import { isId } from "../../lib/ids.ts";
import { grantsAny } from "../../lib/scopes.ts";
import { ANNOUNCEMENTS_CHANNEL } from "../../services/announcements/events.ts";
import { liveFeedAccessFor, liveFeedScope } from "../../services/feeds/live-feed-access.ts";
import {
  directChannel,
  encryptedMessagesChannel,
  hashtagChannel,
  listChannel,
  notificationsChannel,
  publicChannel,
  userChannel,
} from "../../services/streaming/channels.ts";
import { listOwner, streamingTokenOwner } from "../../services/streaming/subscribers.ts";

/** Who is streaming: a user token's account and scopes. */
export interface StreamingAuth {
  accountId: string;
  /** The user's role (for the live feed access settings' staff exception). */
  roleId?: string;
  scopes: readonly string[];
  tokenId: string;
}

/** An error as Mastodon's streaming server sends it (an HTTP status and a message). */
export class StreamError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export const MISSING_TOKEN = "Missing access token";
export const INVALID_TOKEN = "Invalid access token";

/**
 * A user's token as streaming accepts it (Mastodon 4.2+: a token is always needed, and it must be
 * a user's: an app token is as invalid as an unknown one). A disabled, unconfirmed or unapproved
 * user cannot stream either.
 */
export async function streamingAuth(ctx: AppContext, raw: string | undefined): Promise<StreamingAuth> {
  if (raw === undefined || raw === "") throw new StreamError(401, MISSING_TOKEN);
  if (raw.length > 200) throw new StreamError(401, INVALID_TOKEN);
  const owner = await streamingTokenOwner(ctx, raw);
  if (!owner) throw new StreamError(401, INVALID_TOKEN);
  return owner;
}

/** What a client asks to stream: a stream name and its `tag` or `list`. */
export interface StreamRequest {
  stream: string;
  tag?: string;
  list?: string;
}

export interface ResolvedStream {
  /** As WebSocket messages name it: `["user"]`, `["hashtag", "cats"]`, `["list", "123"]`. */
  stream: string[];
  channels: string[];
}

/** The public streams: which parts of the live feeds each carries, and whether only media. */
const PUBLIC = new Map<string, { local: boolean; remote: boolean; media: boolean }>([
  ["public", { local: false, remote: false, media: false }],
  ["public:media", { local: false, remote: false, media: true }],
  ["public:local", { local: true, remote: false, media: false }],
  ["public:local:media", { local: true, remote: false, media: true }],
  ["public:remote", { local: false, remote: true, media: false }],
  ["public:remote:media", { local: false, remote: true, media: true }],
]);

export const LIVE_FEED_DISABLED = "This stream is not available: the server's live feeds are turned off";

/**
 * The channel of a public stream as the operator's live feed access settings allow it to this
 * user (as the public timeline API): a part that is `disabled` is left out of `public`, and a
 * stream with nothing left is refused with 403.
 */
async function publicStream(
  ctx: AppContext,
  auth: StreamingAuth,
  name: string,
  wanted: { local: boolean; remote: boolean; media: boolean },
): Promise<ResolvedStream> {
  const scope = liveFeedScope(await liveFeedAccessFor(ctx, auth.roleId), wanted, true);
  if (scope === "none" || scope === "signIn") throw new StreamError(403, LIVE_FEED_DISABLED);
  const part = scope.local === scope.remote ? "all" : scope.local ? "local" : "remote";
  return { stream: [name], channels: [publicChannel(part, wanted.media)] };
}

/** Mastodon's checkScopes: public and hashtag streams need no scope; the others `read:statuses`, notifications `read:notifications`. */
function checkScopes(auth: StreamingAuth, name: string): void {
  const wanted = name === "user:notification" ? "read:notifications" : "read:statuses";
  if (!grantsAny(auth.scopes, [wanted])) throw new StreamError(401, "Access token does not have the required scopes");
}

/**
 * The bus channels of a stream (services/streaming/channels.ts), after Mastodon's checks and
 * with its error messages: an unknown stream is a 400, a missing `tag` or `list` too, a list
 * that is not the caller's a 401.
 */
export async function resolveStream(ctx: AppContext, auth: StreamingAuth, req: StreamRequest): Promise<ResolvedStream> {
  const name = req.stream;
  const publicParts = PUBLIC.get(name);
  if (publicParts !== undefined) return publicStream(ctx, auth, name, publicParts);
  switch (name) {
    case "hashtag":
    case "hashtag:local": {
      const tag = req.tag?.trim();
      if (!tag) throw new StreamError(400, "Missing tag name parameter");
      return { stream: [name, tag], channels: [hashtagChannel(tag, name === "hashtag:local")] };
    }
    case "user": {
      checkScopes(auth, name);
      // Announcements travel on one channel for everyone (services/announcements/events.ts).
      const channels = [userChannel(auth.accountId), ANNOUNCEMENTS_CHANNEL];
      // The user stream carries notifications only for a token that may read them.
      if (grantsAny(auth.scopes, ["read:notifications"])) channels.push(notificationsChannel(auth.accountId));
      // And the messages of the token's encryption device for a token with `crypto` (Mastodon 3.3 to 4.2).
      if (grantsAny(auth.scopes, ["crypto"])) channels.push(encryptedMessagesChannel(auth.tokenId));
      return { stream: [name], channels };
    }
    case "user:notification":
      checkScopes(auth, name);
      return { stream: [name], channels: [notificationsChannel(auth.accountId)] };
    case "direct":
      checkScopes(auth, name);
      return { stream: [name], channels: [directChannel(auth.accountId)] };
    case "list": {
      checkScopes(auth, name);
      const list = req.list?.trim();
      if (!list) throw new StreamError(400, "Missing list name parameter");
      const owner = isId(list) ? await listOwner(ctx, list) : undefined;
      if (owner !== auth.accountId) throw new StreamError(401, "Not authorized to stream this list");
      return { stream: [name, list], channels: [listChannel(list)] };
    }
    default:
      throw new StreamError(400, "Unknown stream type");
  }
}
