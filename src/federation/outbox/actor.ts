import type { Context } from "@fedify/fedify";
import { Endpoints, Image, type Person, PropertyValue, type Service } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { accountEmojiSource, loadEmojis } from "../../services/custom-emojis/views.ts";
import { DevicesPerson, DevicesService } from "../crypto/actor.ts";
import { toEmojiTag } from "./emoji.ts";

const image = (ctx: AppContext, key: string | null, type: string | null): Image | null =>
  key ? new Image({ url: new URL(ctx.blobs.url(key)), mediaType: type }) : null;

/**
 * The ActivityPub actor of a local account, as Mastodon shows one: a `Person` (a `Service` for
 * bots) with its inbox, the shared inbox, outbox, followers, following, featured posts and tags,
 * both keys (RSA `publicKey`, RSA and Ed25519 `assertionMethod`s), profile fields as
 * `PropertyValue`s, avatar and header, custom emojis, aliases and the account it moved to. A
 * suspended account keeps its keys and collections but shows nothing else (`suspended: true`).
 * Its `devices` collection lists its end-to-end encryption devices.
 * Used by the actor dispatcher and for `Update` activities.
 */
export async function buildLocalActor(fctx: Context<AppContext>, account: Account): Promise<Person | Service> {
  const ctx = fctx.data;
  const id = account.username;
  const suspended = account.suspendedAt !== null;
  const [keys, emojis, movedTo] = await Promise.all([
    fctx.getActorKeyPairs(id),
    suspended ? [[]] : loadEmojis(ctx, [accountEmojiSource(account)]),
    account.movedToAccountId ? ctx.repos.accounts.getById(account.movedToAccountId) : undefined,
  ]);
  const profileUrl = new URL(account.url ?? `${ctx.config.baseUrl}/@${account.username}`);
  // With the `devices` collection Mastodon's actors carry (end-to-end encryption: crypto/actor.ts).
  const Actor = account.actorType === "Service" || account.actorType === "Application" ? DevicesService : DevicesPerson;
  const common = {
    id: fctx.getActorUri(id),
    preferredUsername: account.username,
    // A plain URL, as Mastodon sends it (some peers read no other form); WebFinger's profile-page
    // link is made from it.
    url: profileUrl,
    inbox: fctx.getInboxUri(id),
    endpoints: new Endpoints({ sharedInbox: fctx.getInboxUri() }),
    outbox: fctx.getOutboxUri(id),
    followers: fctx.getFollowersUri(id),
    following: fctx.getFollowingUri(id),
    featured: fctx.getFeaturedUri(id),
    featuredTags: fctx.getFeaturedTagsUri(id),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((k) => k.multikey),
    manuallyApprovesFollowers: account.locked,
    published: Temporal.Instant.from(account.createdAt),
  };
  if (suspended) return new Actor({ ...common, name: "", summary: "", suspended: true });
  return new Actor({
    ...common,
    name: account.displayName,
    summary: account.note,
    discoverable: account.discoverable ?? false,
    indexable: account.indexable,
    memorial: account.memorial || null,
    icon: image(ctx, account.avatarPath, account.avatarContentType),
    image: image(ctx, account.headerPath, account.headerContentType),
    attachments: account.fields.map((f) => new PropertyValue({ name: f.name, value: f.value })),
    tags: (emojis[0] ?? []).map((e) => toEmojiTag(ctx, e)),
    aliases: account.alsoKnownAs.flatMap((uri) => (URL.canParse(uri) ? [new URL(uri)] : [])),
    successor: movedTo ? new URL(movedTo.uri) : null,
  });
}
