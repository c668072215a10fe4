import type { Context, Federation } from "@fedify/fedify";
import { type Activity, Hashtag, type Recipient } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isAccountDeleted, isAccountPublic } from "../../policies/accounts.ts";
import { createOf, loadNoteSources, toNote } from "../outbox/note.ts";
import { announce } from "../outbox/statuses.ts";
import { instanceActorId } from "./actor.ts";

/** Page sizes: Mastodon's outbox pages hold 20 activities, its follower pages 40 accounts. */
const OUTBOX_PAGE = 20;
const FOLLOWS_PAGE = 40;
/** The first page's cursor: the newest items. Later cursors are the last id of the page before. */
const FIRST = "first";

/** The local account behind a collection, when it may be shown. */
async function ownerOf(ctx: AppContext, identifier: string): Promise<Account | undefined> {
  if (identifier === instanceActorId(ctx)) return undefined;
  const account = await ctx.repos.accounts.getByUsername(identifier, null);
  if (!account || account.suspendedAt !== null || isAccountDeleted(account)) return undefined;
  return isAccountPublic(account, await ctx.repos.users.getByAccountId(account.id)) ? account : undefined;
}

const maxIdOf = (cursor: string): string | undefined =>
  cursor === FIRST ? undefined : /^[0-9]{1,20}$/.test(cursor) ? cursor : "0";

/**
 * The outbox page's activities: `Create` for posts, `Announce` for boosts of visible posts (built
 * as deliveries build them, so ids match).
 */
async function outboxActivities(fctx: Context<AppContext>, author: Account, statuses: Status[]): Promise<Activity[]> {
  const ctx = fctx.data;
  const posts = statuses.filter((s) => s.reblogOfId === null);
  const boosts = statuses.filter((s) => s.reblogOfId !== null);
  const [sources, originals] = await Promise.all([
    loadNoteSources(ctx, posts),
    ctx.repos.statuses.getByIds(boosts.map((s) => s.reblogOfId as string)),
  ]);
  const authors = await ctx.repos.accounts.getByIds([...new Set(originals.map((o) => o.accountId))]);
  const sourceOf = new Map(sources.map((src) => [src.status.id, src]));
  const originalOf = new Map(originals.map((o) => [o.id, o]));
  const authorOf = new Map(authors.map((a) => [a.id, a]));
  return statuses.flatMap((s): Activity[] => {
    if (s.reblogOfId === null) {
      const src = sourceOf.get(s.id);
      return src ? [createOf(fctx, src, toNote(fctx, src))] : [];
    }
    const original = originalOf.get(s.reblogOfId);
    const originalAuthor = original && authorOf.get(original.accountId);
    if (!original || !originalAuthor || original.deletedAt !== null) return [];
    if (original.visibility !== "public" && original.visibility !== "unlisted") return [];
    return [announce(fctx, author, s, original, originalAuthor)];
  });
}

/** Account URIs of one page of follows, in the page's order. */
async function accountUris(ctx: AppContext, ids: readonly string[]): Promise<URL[]> {
  const byId = new Map((await ctx.repos.accounts.getByIds(ids)).map((a) => [a.id, a.uri]));
  return ids.flatMap((id) => {
    const uri = byId.get(id);
    return uri && URL.canParse(uri) ? [new URL(uri)] : [];
  });
}

/**
 * The outbox (public and unlisted posts and boosts, paged), followers and following (counted;
 * items listed unless the owner hides their network, as Mastodon), featured (pinned posts as
 * notes) and featured tags (`Hashtag`s). The followers dispatcher without a cursor lists the remote
 * followers' inboxes: Fedify delivers to "followers" through it.
 */
export function registerCollectionDispatchers(federation: Federation<AppContext>): void {
  federation
    .setOutboxDispatcher("/users/{identifier}/outbox", async (fctx, identifier, cursor) => {
      const ctx = fctx.data;
      if (identifier === instanceActorId(ctx)) return { items: [] };
      const owner = await ownerOf(ctx, identifier);
      if (!owner) return null;
      if (cursor === null) return { items: [] };
      const page = await ctx.repos.statusPages.accountStatusesPage(
        owner.id,
        {},
        { excludeReplies: false, excludeReblogs: false, onlyMedia: false },
        { maxId: maxIdOf(cursor), limit: OUTBOX_PAGE },
      );
      const last = page.at(-1);
      return {
        items: await outboxActivities(fctx, owner, page),
        nextCursor: page.length === OUTBOX_PAGE && last ? last.id : null,
      };
    })
    .setCounter(async (fctx, identifier) => (await ownerOf(fctx.data, identifier))?.statusesCount ?? 0)
    .setFirstCursor(() => FIRST);

  federation
    .setFollowersDispatcher("/users/{identifier}/followers", async (fctx, identifier, cursor) => {
      const ctx = fctx.data;
      if (identifier === instanceActorId(ctx)) return { items: [] };
      const owner = await ownerOf(ctx, identifier);
      if (!owner) return null;
      if (cursor === null) {
        const inboxes = await ctx.repos.localActors.remoteFollowerInboxes(owner.id);
        const items: Recipient[] = inboxes.flatMap((f) =>
          URL.canParse(f.uri) && URL.canParse(f.inboxUrl)
            ? [
                {
                  id: new URL(f.uri),
                  inboxId: new URL(f.inboxUrl),
                  endpoints: {
                    sharedInbox: f.sharedInboxUrl && URL.canParse(f.sharedInboxUrl) ? new URL(f.sharedInboxUrl) : null,
                  },
                },
              ]
            : [],
        );
        return { items };
      }
      if (owner.hideCollections) return { items: [] };
      const page = await ctx.repos.followPages.page(
        "followers",
        owner.id,
        { maxId: maxIdOf(cursor), limit: FOLLOWS_PAGE },
        undefined,
      );
      const last = page.at(-1);
      const uris = await accountUris(
        ctx,
        page.map((r) => r.accountId),
      );
      return {
        items: uris.map((id) => ({ id, inboxId: null })),
        nextCursor: page.length === FOLLOWS_PAGE && last ? last.id : null,
      };
    })
    .setCounter(async (fctx, identifier) => (await ownerOf(fctx.data, identifier))?.followersCount ?? 0)
    .setFirstCursor(() => FIRST);

  federation
    .setFollowingDispatcher("/users/{identifier}/following", async (fctx, identifier, cursor) => {
      const ctx = fctx.data;
      if (identifier === instanceActorId(ctx)) return { items: [] };
      const owner = await ownerOf(ctx, identifier);
      if (!owner) return null;
      if (cursor === null || owner.hideCollections) return { items: [] };
      const page = await ctx.repos.followPages.page(
        "following",
        owner.id,
        { maxId: maxIdOf(cursor), limit: FOLLOWS_PAGE },
        undefined,
      );
      const last = page.at(-1);
      return {
        items: await accountUris(
          ctx,
          page.map((r) => r.accountId),
        ),
        nextCursor: page.length === FOLLOWS_PAGE && last ? last.id : null,
      };
    })
    .setCounter(async (fctx, identifier) => (await ownerOf(fctx.data, identifier))?.followingCount ?? 0)
    .setFirstCursor(() => FIRST);

  federation.setFeaturedDispatcher("/users/{identifier}/collections/featured", async (fctx, identifier) => {
    const ctx = fctx.data;
    if (identifier === instanceActorId(ctx)) return { items: [] };
    const owner = await ownerOf(ctx, identifier);
    if (!owner) return null;
    const pinned = await ctx.repos.statusPages.pinnedOf(owner.id, {});
    const sources = await loadNoteSources(ctx, pinned);
    return { items: sources.map((src) => toNote(fctx, src)) };
  });

  federation.setFeaturedTagsDispatcher("/users/{identifier}/collections/tags", async (fctx, identifier) => {
    const ctx = fctx.data;
    if (identifier === instanceActorId(ctx)) return { items: [] };
    const owner = await ownerOf(ctx, identifier);
    if (!owner) return null;
    const tags = await ctx.repos.tagCuration.featured(owner.id);
    const profile = owner.url ?? `${ctx.config.baseUrl}/@${owner.username}`;
    return {
      items: tags.map(
        (t) =>
          new Hashtag({
            href: new URL(`${profile}/tagged/${encodeURIComponent(t.tag.name)}`),
            name: `#${t.tag.displayName}`,
          }),
      ),
    };
  });
}
