import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User } from "../../db/repositories/users.ts";
import { JsonCache, sameData } from "../../lib/json-cache.ts";
import { defaultPrivacy } from "../../policies/accounts.ts";
import {
  type AccountView,
  type MediaUrls,
  serializeAccount,
  serializeCredentialAccount,
} from "../../serializers/account.ts";
import { accountEmojiSource, loadEmojis } from "../custom-emojis/views.ts";

export function mediaUrls(ctx: AppContext): MediaUrls {
  return { baseUrl: ctx.config.baseUrl, blobUrl: (key) => ctx.blobs.url(key) };
}

/**
 * What the Account serializer needs for many accounts, in a bounded number of queries:
 * the users of local accounts (for role badges) and the accounts they moved to.
 */
export async function loadAccountViews(
  ctx: AppContext,
  accounts: readonly Account[],
  knownRoleIds?: ReadonlyMap<string, string | null>,
): Promise<AccountView[]> {
  const localIds = accounts.filter((a) => a.domain === null).map((a) => a.id);
  let roleByAccount: Map<string, string>;
  if (knownRoleIds !== undefined && localIds.every((id) => knownRoleIds.has(id))) {
    roleByAccount = new Map();
    for (const id of localIds) {
      const roleId = knownRoleIds.get(id);
      if (roleId) roleByAccount.set(id, roleId);
    }
  } else roleByAccount = await ctx.repos.users.roleIdsByAccountIds(localIds);
  const movedIds = [...new Set(accounts.map((a) => a.movedToAccountId).filter((x): x is string => x !== null))];
  const moved = new Map((await ctx.repos.accounts.getByIds(movedIds)).map((a) => [a.id, a]));
  const all = [...accounts, ...moved.values()];
  const emojis = await loadEmojis(ctx, all.map(accountEmojiSource));
  const emojisOf = new Map(all.map((a, i) => [a.id, emojis[i]]));
  const views: AccountView[] = [];
  for (const account of accounts) {
    const roleId = roleByAccount.get(account.id);
    const role = roleId ? await ctx.roles.get(roleId) : undefined;
    const m = account.movedToAccountId ? moved.get(account.movedToAccountId) : undefined;
    views.push({
      account,
      role,
      moved: m ? { account: m, emojis: emojisOf.get(m.id) } : undefined,
      emojis: emojisOf.get(account.id),
    });
  }
  return views;
}

export async function accountJson(ctx: AppContext, account: Account): Promise<Record<string, unknown>> {
  const [view] = await loadAccountViews(ctx, [account]);
  return serializeAccount(view, mediaUrls(ctx));
}

/** Account JSON of `accounts`; `knownRoleIds` (their users' roles, read with them) saves a query. */
export async function accountsJson(
  ctx: AppContext,
  accounts: readonly Account[],
  knownRoleIds?: ReadonlyMap<string, string | null>,
): Promise<Record<string, unknown>[]> {
  const urls = mediaUrls(ctx);
  return (await loadAccountViews(ctx, accounts, knownRoleIds)).map((v) => serializeAccount(v, urls));
}

/** Rendered accounts of each server (their URLs differ), checked against the rows they came from. */
const accountTexts = new WeakMap<AppContext, JsonCache<AccountView>>();

/**
 * The Account JSON texts of `accounts` (as `accountsJson`, stringified), an account's text
 * rendered again only when its row, role, emojis or move target differ from the last time.
 */
export async function accountsText(
  ctx: AppContext,
  accounts: readonly Account[],
  knownRoleIds?: ReadonlyMap<string, string | null>,
): Promise<string[]> {
  let cache = accountTexts.get(ctx);
  if (cache === undefined) {
    // A few KB each (the row and the text): bounded to some 6 MB.
    cache = new JsonCache<AccountView>(2000, sameData);
    accountTexts.set(ctx, cache);
  }
  const urls = mediaUrls(ctx);
  const views = await loadAccountViews(ctx, accounts, knownRoleIds);
  return views.map((v) =>
    (cache as JsonCache<AccountView>).text(v.account.id, v, (x) => JSON.stringify(serializeAccount(x, urls))),
  );
}

/** What the CredentialAccount serializer needs besides the account and user rows. */
type CredentialView = Parameters<typeof serializeCredentialAccount>[0];

/**
 * Reads what the CredentialAccount of `account` shows besides its own row and `user`: the role
 * and the follow-request count (one query), and its emojis and move target when it names any.
 */
async function loadCredentialView(ctx: AppContext, account: Account, user: User): Promise<CredentialView> {
  const { role, everyone, followRequestsCount } = await ctx.repos.roles.forCredentialAccount(user.roleId, account.id);
  const fullRole = role ?? everyone;
  if (!fullRole) throw new Error("the everyone role is missing");
  const moved = account.movedToAccountId ? await ctx.repos.accounts.getById(account.movedToAccountId) : undefined;
  const [emojis, movedEmojis] = await loadEmojis(ctx, [account, ...(moved ? [moved] : [])].map(accountEmojiSource));
  return {
    account,
    user,
    role: fullRole,
    fullRole,
    emojis,
    moved: moved ? { account: moved, emojis: movedEmojis } : undefined,
    followRequestsCount,
  };
}

/** CredentialAccount of the signed-in user. */
export async function credentialAccountJson(
  ctx: AppContext,
  account: Account,
  user: User,
): Promise<Record<string, unknown>> {
  return serializeCredentialAccount(await loadCredentialView(ctx, account, user), mediaUrls(ctx));
}

/**
 * Kept CredentialAccount JSON of one server, by account: its UTF-8 bytes, what it was rendered
 * from, and the database's change stamp (database.ts) read before that was read.
 */
class CredentialBodies {
  readonly #max = 2000;
  readonly #byAccount = new Map<string, { stamp: number | undefined; view: CredentialView; bytes: Buffer }>();

  /**
   * While the stamp has not moved (SQLite: no write to the accounts, users, roles, follow
   * requests or emojis, by any process) and `account` and `user` are the very rows the JSON was
   * made from (the token cache hands the same objects out under the same stamp), the kept JSON
   * is answered without a query. Otherwise the rest is read again and the JSON is made again
   * only when something it shows differs.
   */
  async body(ctx: AppContext, account: Account, user: User): Promise<Buffer> {
    const stamp = ctx.database.changeStamp();
    const kept = this.#byAccount.get(account.id);
    if (
      kept !== undefined &&
      stamp !== undefined &&
      kept.stamp === stamp &&
      kept.view.account === account &&
      kept.view.user === user
    ) {
      return kept.bytes;
    }
    const view = await loadCredentialView(ctx, account, user);
    let bytes: Buffer;
    if (kept !== undefined && sameData(kept.view, view)) bytes = kept.bytes;
    else {
      const text = JSON.stringify(serializeCredentialAccount(view, mediaUrls(ctx)));
      // A buffer of its own, not a slice of Node's shared pool (which it would keep alive).
      bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
      bytes.write(text);
    }
    this.#byAccount.delete(account.id);
    this.#byAccount.set(account.id, { stamp, view, bytes });
    if (this.#byAccount.size > this.#max) {
      const oldest = this.#byAccount.keys().next().value;
      if (oldest !== undefined) this.#byAccount.delete(oldest);
    }
    return bytes;
  }
}

const credentialBodies = new WeakMap<AppContext, CredentialBodies>();

/** `credentialAccountJson` as UTF-8 JSON, kept between requests (see CredentialBodies). */
export function credentialAccountBytes(ctx: AppContext, account: Account, user: User): Promise<Buffer> {
  let bodies = credentialBodies.get(ctx);
  if (bodies === undefined) {
    bodies = new CredentialBodies();
    credentialBodies.set(ctx, bodies);
  }
  return bodies.body(ctx, account, user);
}

/** Mastodon's Preferences entity: the user's posting and reading defaults. */
export function preferencesJson(account: Account, user: User): Record<string, unknown> {
  const s = user.settings;
  return {
    "posting:default:visibility": defaultPrivacy(account, user),
    "posting:default:sensitive": s.sensitive ?? false,
    "posting:default:language": s.language || null,
    "reading:expand:media": s.expandMedia ?? "default",
    "reading:expand:spoilers": s.expandSpoilers ?? false,
    "posting:default:quote_policy": s.quotePolicy ?? "public",
  };
}
