import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { User } from "../../db/repositories/users.ts";
import { isId } from "../../lib/ids.ts";
import { resolveAcct } from "../accounts/resolve.ts";
import { follow, unfollow } from "../follows/follow.ts";
import { fetchBytes, RemoteFetchError } from "../remote/fetch-bytes.ts";
import { search } from "../search/search.ts";
import { favourite, reblog, unfavourite, unreblog } from "../statuses/actions.ts";
import { createStatus } from "../statuses/create.ts";
import type { Visibility } from "../statuses/types.ts";
import { filterVisible } from "../statuses/views.ts";

/** What an interaction is about: an account, or a post with its author. */
export type InteractionObject =
  | { kind: "account"; account: Account }
  | { kind: "status"; status: Status; account: Account };

export const INTERACTION_TYPES = ["follow", "reply", "favourite", "reblog"] as const;
export type InteractionType = (typeof INTERACTION_TYPES)[number];

/** The `rel` of the WebFinger link whose template takes a remote object's URI (OStatus's subscribe). */
export const SUBSCRIBE_REL = "http://ostatus.org/schema/1.0/subscribe";

const MAX_JRD_BYTES = 64 * 1024;
const WEBFINGER_TIMEOUT_MS = 10_000;
const MAX_URI_CHARS = 2000;

async function searchableAccount(ctx: AppContext, account: Account | undefined): Promise<Account | undefined> {
  if (!account) return undefined;
  return (await ctx.repos.accounts.searchableIds([account.id])).has(account.id) ? account : undefined;
}

async function visibleStatus(
  ctx: AppContext,
  status: Status | undefined,
  viewerId: string | undefined,
): Promise<InteractionObject | undefined> {
  if (!status || status.reblogOfId !== null) return undefined;
  const [visible] = await filterVisible(ctx, [status], viewerId, { keep: "all" });
  if (!visible) return undefined;
  const account = await ctx.repos.accounts.getById(visible.accountId);
  return account ? { kind: "status", status: visible, account } : undefined;
}

/**
 * The account or post `uri` names, from the database only (no fetch): a known ActivityPub URI,
 * or this server's page URL of a profile or post (`/@user`, `/@user/ID`). Only what anyone may
 * see: public and unlisted posts, accounts that are neither suspended nor unconfirmed.
 */
export async function knownObject(ctx: AppContext, uri: string): Promise<InteractionObject | undefined> {
  const q = uri.trim();
  if (q === "" || q.length > MAX_URI_CHARS) return undefined;
  const status = await ctx.repos.statuses.getByUri(q);
  if (status) return visibleStatus(ctx, status, undefined);
  const account = await ctx.repos.accounts.getByUri(q);
  if (account) {
    const visible = await searchableAccount(ctx, account);
    return visible && { kind: "account", account: visible };
  }
  let url: URL;
  try {
    url = new URL(q);
  } catch {
    return undefined;
  }
  if (url.host !== new URL(ctx.config.baseUrl).host) return undefined;
  const m = /^\/@([A-Za-z0-9_]+)(?:\/([0-9]{1,20}))?\/?$/.exec(url.pathname);
  if (!m) return undefined;
  const local = await searchableAccount(ctx, await ctx.repos.accounts.getByUsername(m[1], null));
  if (!local) return undefined;
  if (m[2] === undefined) return { kind: "account", account: local };
  if (!isId(m[2])) return undefined;
  const byId = await ctx.repos.statuses.getById(m[2]);
  return byId?.accountId === local.id ? visibleStatus(ctx, byId, undefined) : undefined;
}

/** The URI other servers know an object by (the one their subscribe templates are given). */
export function objectUri(o: InteractionObject): string {
  return o.kind === "account" ? o.account.uri : o.status.uri;
}

/** A visitor's handle (`user@server`, `@user@server`, `acct:user@server`) or bare server name, or undefined. */
export function parseHandle(input: string): { username: string | undefined; domain: string } | undefined {
  const v = input
    .trim()
    .replace(/^acct:/i, "")
    .replace(/^@/, "");
  if (v === "" || v.length > 300) return undefined;
  const parts = v.split("@");
  if (parts.length > 2) return undefined;
  const [username, domain] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (username !== undefined && !/^[A-Za-z0-9_]+(?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/.test(username)) return undefined;
  // A host name (with an optional port), or an IPv4 address: no scheme, path, spaces or brackets.
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?$/.test(domain) || !domain.includes(".")) {
    return undefined;
  }
  return { username, domain: domain.toLowerCase() };
}

export type TemplateLookup = { template: string } | { error: "unreachable" | "no_template" };

/**
 * The subscribe template of the visitor's server, from WebFinger (RFC 7033) on `acct:user@server`
 * (or, given only the server, on the server's own URL, which Mastodon answers for its instance
 * actor). Fetched through the guarded client (private addresses refused unless allowed), over
 * https; over http only when this server itself runs without https (development and tests).
 */
export async function subscribeTemplate(
  ctx: AppContext,
  handle: { username: string | undefined; domain: string },
): Promise<TemplateLookup> {
  const scheme = ctx.config.localHttps ? "https" : "http";
  const resource =
    handle.username === undefined ? `${scheme}://${handle.domain}` : `acct:${handle.username}@${handle.domain}`;
  const url = `${scheme}://${handle.domain}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
  let jrd: unknown;
  try {
    const body = await fetchBytes(ctx, url, {
      maxBytes: MAX_JRD_BYTES,
      timeoutMs: WEBFINGER_TIMEOUT_MS,
      accept: "application/jrd+json, application/json;q=0.9",
    });
    jrd = JSON.parse(new TextDecoder().decode(body.bytes));
  } catch (e) {
    if (e instanceof RemoteFetchError || e instanceof SyntaxError) return { error: "unreachable" };
    throw e;
  }
  const links = (jrd as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) return { error: "no_template" };
  for (const link of links) {
    const { rel, template } = (link ?? {}) as Record<string, unknown>;
    if (rel === SUBSCRIBE_REL && typeof template === "string" && template.includes("{uri}")) return { template };
  }
  return { error: "no_template" };
}

/** The template with `{uri}` filled (URL-encoded), if the result is an http(s) URL. */
export function fillTemplate(template: string, uri: string): string | undefined {
  const filled = template.replaceAll("{uri}", encodeURIComponent(uri));
  try {
    const u = new URL(filled);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What `/authorize_interaction?uri=` names, for a signed-in local user: an `acct:` URI or handle
 * (WebFinger when unknown), or a URL: this server's pages, known objects, else the remote object
 * fetched through Fedify (guarded) and stored, as search with `resolve` does. Only what the
 * viewer may see.
 */
export async function resolveForUser(
  ctx: AppContext,
  viewer: Account,
  uri: string,
): Promise<InteractionObject | undefined> {
  const q = uri.trim();
  if (q === "" || q.length > MAX_URI_CHARS) return undefined;
  if (/^acct:/i.test(q) || /^@?[^\s@/:]+@[^\s@/]+$/.test(q)) {
    const account = await searchableAccount(ctx, await resolveAcct(ctx, q.replace(/^acct:/i, "")));
    return account && { kind: "account", account };
  }
  if (!/^https?:\/\//i.test(q)) return undefined;
  const found = await search(ctx, q, {
    limit: 1,
    offset: 0,
    viewer,
    following: false,
    excludeUnreviewed: false,
    resolve: true,
  });
  const [account] = found.accounts;
  if (account) return { kind: "account", account };
  const [status] = found.statuses;
  return status ? visibleStatus(ctx, status, viewer.id) : undefined;
}

/** The viewer's state towards the object: follow (or request) of the account; favourite and boost of the post. */
export async function interactionState(
  ctx: AppContext,
  viewer: Account,
  o: InteractionObject,
): Promise<{ following: boolean; requested: boolean; favourited: boolean; reblogged: boolean }> {
  if (o.kind === "account") {
    const [following, requested] = await Promise.all([
      ctx.repos.follows.getFollow(viewer.id, o.account.id),
      ctx.repos.follows.getRequest(viewer.id, o.account.id),
    ]);
    return {
      following: following !== undefined,
      requested: requested !== undefined,
      favourited: false,
      reblogged: false,
    };
  }
  const flags = await ctx.repos.statusInteractions.viewerFlags(viewer.id, [o.status.id], [], []);
  return {
    following: false,
    requested: false,
    favourited: flags.favourited.has(o.status.id),
    reblogged: flags.reblogged.has(o.status.id),
  };
}

export const INTENTS = ["follow", "unfollow", "favourite", "unfavourite", "reblog", "unreblog", "reply"] as const;
export type Intent = (typeof INTENTS)[number];

/**
 * Does what the viewer asked on the object, through the same services as the API (which throw
 * `ApiError` for what may not be done: blocked, not found, a reply too long...).
 */
export async function interact(
  ctx: AppContext,
  viewer: { account: Account; user: User },
  o: InteractionObject,
  intent: Intent,
  reply?: { text: string; spoilerText: string; visibility: Visibility | undefined },
): Promise<void> {
  const { account, user } = viewer;
  switch (intent) {
    case "follow":
      await follow(ctx, account, o.account.id, {});
      return;
    case "unfollow":
      await unfollow(ctx, account, o.account.id);
      return;
  }
  if (o.kind !== "status") return;
  const id = o.status.id;
  switch (intent) {
    case "favourite":
      await favourite(ctx, account, id);
      return;
    case "unfavourite":
      await unfavourite(ctx, account, id);
      return;
    case "reblog":
      await reblog(ctx, account, user, id, undefined);
      return;
    case "unreblog":
      await unreblog(ctx, account, id);
      return;
    case "reply":
      await createStatus(ctx, account, user, {
        text: reply?.text ?? "",
        spoilerText: reply?.spoilerText ?? "",
        visibility: reply?.visibility,
        inReplyToId: id,
        applicationId: null,
      });
      return;
  }
}
