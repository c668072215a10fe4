import { z } from "zod";
import { CustomEmoji } from "./accounts.ts";
import { count, dateTime, entity, id, url } from "./common.ts";
import { StatusMention, StatusTag } from "./statuses.ts";

export const Application = entity(
  "Application",
  "A client application registered with the server (`vapid_key` is the server's, kept for older clients).",
  z.object({
    id: id(),
    name: z.string(),
    website: z.string().nullable(),
    scopes: z.array(z.string()),
    redirect_uris: z.array(z.string()),
    vapid_key: z.string(),
    redirect_uri: z.string(),
  }),
);

export const CredentialApplication = entity(
  "CredentialApplication",
  "An Application right after it is registered, with its client id and secret (which never expires).",
  Application.extend({ client_id: z.string(), client_secret: z.string(), client_secret_expires_at: z.literal(0) }),
);

export const Token = entity(
  "Token",
  "An OAuth access token, its scopes, and when it was made (Unix seconds).",
  z.object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    scope: z.string(),
    created_at: z.number().int(),
  }),
);

export const Reaction = entity(
  "Reaction",
  "An emoji reaction to an announcement: how many; `me` only with a token; images only for a custom emoji.",
  z.object({
    name: z.string(),
    me: z.boolean().optional(),
    count: count(),
    url: url().optional(),
    static_url: url().optional(),
  }),
);

export const Announcement = entity(
  "Announcement",
  "A notice from the server's staff; `read` only for a signed-in viewer.",
  z.object({
    id: id(),
    content: z.string(),
    starts_at: dateTime().nullable(),
    ends_at: dateTime().nullable(),
    all_day: z.boolean(),
    published_at: dateTime().nullable(),
    updated_at: dateTime(),
    read: z.boolean().optional(),
    mentions: z.array(StatusMention),
    statuses: z.array(z.object({ id: id(), url: url() })),
    tags: z.array(StatusTag),
    emojis: z.array(CustomEmoji),
    reactions: z.array(Reaction),
  }),
);

export const OAuthServerMetadata = entity(
  "OAuthServerMetadata",
  "The OAuth 2 authorization server's metadata (RFC 8414): its endpoints, scopes and grant types.",
  z.object({
    issuer: url(),
    service_documentation: url(),
    authorization_endpoint: url(),
    token_endpoint: url(),
    app_registration_endpoint: url(),
    revocation_endpoint: url(),
    userinfo_endpoint: url(),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
  }),
);

export const OAuthUserInfo = entity(
  "OAuthUserInfo",
  "OpenID Connect-style claims about the token's user: the actor URI as subject, names and profile links.",
  z.object({
    iss: url(),
    sub: url(),
    name: z.string(),
    preferred_username: z.string(),
    profile: url(),
    picture: url(),
    website: url(),
  }),
);

export const UnreadCount = entity(
  "UnreadCount",
  "How many unread notifications (or notification groups, in v2) there are.",
  z.object({ count: count() }),
);
