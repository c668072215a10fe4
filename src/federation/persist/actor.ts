import type { Context } from "@fedify/fedify";
import {
  type Actor,
  type Object as APObject,
  Application,
  Emoji,
  Group,
  Image,
  isActor,
  Link,
  PropertyValue,
  Service,
} from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account, AccountField, RemoteActorInfo } from "../../db/repositories/accounts.ts";
import { htmlToPlainText, sanitizeRemoteHtml } from "../../lib/text/remote-html.ts";
import { queueRemoteMedia } from "../../services/media/remote-cache.ts";
import { persistEmojis } from "./emoji.ts";
import { hostOf, loaderOptions, sameOrigin } from "./origin.ts";
import { pageUrlOf } from "./page-url.ts";

/** A remote account is fetched again when its copy is older than this (Mastodon: a day). */
export const ACTOR_STALE_MS = 24 * 3600_000;

// Mastodon's rule for remote usernames: ASCII letters, digits and `_`, with `.` and `-` only
// between them (a full-width `ａｌｉｃｅ` would pass for `alice` in a mention).
const USERNAME_RE = /^(?=.{1,100}$)[A-Za-z0-9_]+(?:[.-]+[A-Za-z0-9_]+)*$/;
const MAX_FIELDS = 16;
const MAX_ALIASES = 20;

function firstUrl(value: URL | Link | null): string | null {
  if (value instanceof URL) return value.href;
  if (value instanceof Link && value.href) return value.href.href;
  return null;
}

/** The URL of an actor's icon or image (an embedded Image, or a plain URL). */
async function imageUrl(ctx: Context<AppContext>, actor: Actor, which: "icon" | "image"): Promise<string | null> {
  try {
    const img = which === "icon" ? await actor.getIcon(loaderOptions(ctx)) : await actor.getImage(loaderOptions(ctx));
    if (!(img instanceof Image)) return null;
    const url = img.url;
    const href = firstUrl(url);
    return href !== null && /^https?:/i.test(href) ? href : null;
  } catch {
    return null;
  }
}

async function profileFields(ctx: Context<AppContext>, actor: Actor): Promise<AccountField[]> {
  const out: AccountField[] = [];
  try {
    for await (const a of actor.getAttachments(loaderOptions(ctx))) {
      if (!(a instanceof PropertyValue) || out.length >= MAX_FIELDS) continue;
      const name = a.name?.toString() ?? "";
      if (name === "") continue;
      out.push({
        name: htmlToPlainText(name),
        value: sanitizeRemoteHtml(a.value?.toString() ?? ""),
        verified_at: null,
      });
    }
  } catch {
    // An attachment that cannot be read leaves the fields read so far.
  }
  return out;
}

async function publicKeyPem(ctx: Context<AppContext>, actor: Actor): Promise<string | null> {
  try {
    const key = await actor.getPublicKey(loaderOptions(ctx));
    const crypto = key?.publicKey;
    if (!crypto || key.ownerId?.href !== actor.id?.href) return null;
    const der = Buffer.from(await globalThis.crypto.subtle.exportKey("spki", crypto));
    const b64 = der.toString("base64").replace(/(.{64})/g, "$1\n");
    return `-----BEGIN PUBLIC KEY-----\n${b64}${b64.endsWith("\n") ? "" : "\n"}-----END PUBLIC KEY-----\n`;
  } catch {
    return null;
  }
}

async function actorEmojis(ctx: Context<AppContext>, actor: Actor): Promise<Emoji[]> {
  const out: Emoji[] = [];
  try {
    for await (const t of actor.getTags(loaderOptions(ctx))) if (t instanceof Emoji) out.push(t);
  } catch {
    // Emojis are decoration: a tag that cannot be read is skipped.
  }
  return out;
}

function actorType(actor: Actor): string {
  if (actor instanceof Service || actor instanceof Application) return "Service";
  if (actor instanceof Group) return "Group";
  return "Person";
}

export interface PersistActorOptions {
  /** WebFinger has just confirmed the handle (sets `last_webfingered_at`). */
  webfingered?: boolean;
}

/**
 * Creates or updates the remote account of a Fedify `Actor`, and answers it; null when the actor
 * cannot be stored: no id or username, one of ours, or its domain is suspended (or not allowed in
 * limited-federation mode). The domain is the actor id's host with its port. The profile's HTML
 * is sanitised, custom emojis of the name, bio and fields are recorded, and an account of a
 * silenced domain is silenced. `movedTo` is set only when the new account is known here already
 * (resolving it is the caller's business: see the Move listener).
 */
export async function persistActor(
  ctx: Context<AppContext>,
  actor: Actor,
  opts: PersistActorOptions = {},
): Promise<Account | null> {
  const app = ctx.data;
  const id = actor.id;
  if (!id || !/^https?:$/.test(id.protocol)) return null;
  const domain = hostOf(id);
  if (domain === new URL(app.config.baseUrl).host.toLowerCase() || domain === app.config.localDomain.toLowerCase()) {
    return (await app.repos.accounts.getByUri(id.href)) ?? null;
  }
  const { allowed, rule } = await app.repos.instanceDomainBlocks.policyFor(domain);
  if (!allowed) return null;
  const username = actor.preferredUsername?.toString() ?? "";
  if (!USERNAME_RE.test(username)) return null;
  const now = new Date().toISOString();
  const inbox = actor.inboxId;
  const sharedInbox = actor.endpoints?.sharedInbox ?? null;
  const keep = (u: URL | null) => (u !== null && sameOrigin(u, id) ? u.href : null);
  const displayName = htmlToPlainText(actor.name?.toString() ?? "").slice(0, 100);
  const note = sanitizeRemoteHtml(actor.summary?.toString() ?? "");
  const fields = await profileFields(ctx, actor);
  const aliases = actor.aliasIds
    .map((u) => u.href)
    .filter((u) => /^https?:/.test(u))
    .slice(0, MAX_ALIASES);
  const successor = actor.successorId;
  const movedTo = successor ? await app.repos.accounts.getByUri(successor.href) : undefined;
  const published = actor.published ? new Date(actor.published.epochMilliseconds) : null;
  const createdAt = published && published.getTime() <= Date.now() ? published.toISOString() : now;
  const rejectMedia = rule?.rejectMedia === true;
  const row = {
    display_name: displayName,
    note,
    fields: JSON.stringify(fields),
    actor_type: actorType(actor),
    locked: actor.manuallyApprovesFollowers === true,
    discoverable: actor.discoverable ?? null,
    indexable: actor.indexable === true,
    memorial: actor.memorial === true,
    url: pageUrlOf(firstUrl(actor.url), id) ?? id.href,
    inbox_url: inbox?.href ?? null,
    // Shared inboxes may live on another host of the same server: only the scheme is checked.
    shared_inbox_url: sharedInbox && /^https?:$/.test(sharedInbox.protocol) ? sharedInbox.href : null,
    outbox_url: keep(actor.outboxId),
    followers_url: keep(actor.followersId),
    following_url: keep(actor.followingId),
    featured_url: keep(actor.featuredId),
    featured_tags_url: keep(actor.featuredTagsId),
    public_key_pem: await publicKeyPem(ctx, actor),
    avatar_remote_url: rejectMedia ? null : await imageUrl(ctx, actor, "icon"),
    header_remote_url: rejectMedia ? null : await imageUrl(ctx, actor, "image"),
    also_known_as: JSON.stringify(aliases),
    moved_to_account_id: movedTo?.id ?? null,
    fetched_at: now,
    updated_at: now,
    ...(opts.webfingered ? { last_webfingered_at: now } : {}),
  };
  if (!rejectMedia) await persistEmojis(ctx, domain, await actorEmojis(ctx, actor), now);
  const repo = app.repos.accounts;
  let existing = await repo.getByUri(id.href);
  // The same handle under a new id on the same server: its server says it is that account now.
  existing ??= await repo.getByUsername(username, domain);
  const suspended = actor.suspended === true;
  if (existing) {
    await repo.update(existing.id, {
      ...row,
      uri: id.href,
      username,
      ...(suspended && existing.suspendedAt === null ? { suspended_at: now, suspension_origin: "remote" } : {}),
      ...(!suspended && existing.suspensionOrigin === "remote" ? { suspended_at: null, suspension_origin: null } : {}),
    });
    return withImagesCached(app, await repo.getById(existing.id));
  }
  const newId = app.ids.next(new Date(createdAt));
  const inserted = await repo.insertRemote({
    id: newId,
    username,
    domain,
    uri: id.href,
    ...row,
    // Marked with the block's own time, as Mastodon does: changing or lifting the block undoes it.
    silenced_at: rule?.severity === "silence" ? rule.createdAt : null,
    ...(suspended ? { suspended_at: now, suspension_origin: "remote" } : {}),
    created_at: createdAt,
  });
  // Lost a race with another delivery of the same actor: theirs is the row.
  if (!inserted) return (await repo.getByUri(id.href)) ?? null;
  return withImagesCached(app, await repo.getById(newId));
}

/** Queues the caching of a stored account's avatar and header (services/media/remote-cache.ts). */
async function withImagesCached(app: AppContext, account: Account | undefined): Promise<Account | null> {
  if (!account) return null;
  await queueRemoteMedia(app, { accountId: account.id });
  return account;
}

/**
 * The remote details `accountForActor` read for the account object it answered (each read of an
 * account is a new object, so this lives as long as the activity's handling that holds it).
 */
const readInfo = new WeakMap<Account, RemoteActorInfo>();

/**
 * `remoteInfo` of a remote account: the row `accountForActor` read for this very object when it
 * answered it (an activity's sender, checked for freshness a moment ago), else read now.
 */
export async function remoteInfoOf(app: AppContext, account: Account): Promise<RemoteActorInfo | undefined> {
  return readInfo.get(account) ?? (await app.repos.accounts.remoteInfo(account.id));
}

/**
 * The account of the actor at `uri`: the stored one while it is fresh, else fetched (through
 * Fedify's document loader, signed) and stored. null when it cannot be had. `fetch: false` never
 * fetches; `force` always does (a Move checks the target's current aliases).
 */
export async function accountForActor(
  ctx: Context<AppContext>,
  uri: URL,
  opts: { refreshStale?: boolean; fetch?: boolean; force?: boolean } = {},
): Promise<Account | null> {
  const stored = await ctx.data.repos.accounts.getByUri(uri.href);
  if (stored && (stored.domain === null || opts.refreshStale === false)) return stored;
  if (stored && !opts.force) {
    const info = await ctx.data.repos.accounts.remoteInfo(stored.id);
    if (info) readInfo.set(stored, info);
    const fresh = info?.fetchedAt && Date.now() - Date.parse(info.fetchedAt) < ACTOR_STALE_MS;
    if (fresh || opts.fetch === false) return stored;
  } else if (opts.fetch === false) {
    return null;
  }
  let fetched: APObject | null = null;
  try {
    fetched = await ctx.lookupObject(uri.href, loaderOptions(ctx));
  } catch {
    fetched = null;
  }
  if (!isActor(fetched) || fetched.id?.href !== uri.href) return stored ?? null;
  return (await persistActor(ctx, fetched)) ?? stored ?? null;
}
