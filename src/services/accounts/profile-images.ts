import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { enqueueDelivery } from "../../federation/deliveries.ts";
import { randomToken } from "../../lib/crypto.ts";
import type { ProcessedImage, ProfileImageKind } from "../media/process-image.ts";

const FOLDER: Record<ProfileImageKind, string> = { avatar: "avatars", header: "headers" };

/** Stores a processed avatar or header under a fresh name and answers its blob key. */
export async function storeProfileImage(
  ctx: AppContext,
  accountId: string,
  kind: ProfileImageKind,
  image: ProcessedImage,
): Promise<string> {
  const key = `accounts/${FOLDER[kind]}/${accountId}/${randomToken(12)}.${image.extension}`;
  await ctx.blobs.put(key, image.data, image.contentType);
  return key;
}

/** Deletes a stored file, ignoring failures: a stray file is better than a failed profile update. */
export async function deleteBlobQuietly(ctx: AppContext, key: string | null | undefined): Promise<void> {
  if (!key) return;
  try {
    await ctx.blobs.delete(key);
  } catch {
    // Left for a media cleanup run.
  }
}

/**
 * Removes the account's avatar or header (`DELETE /api/v1/profile/avatar|header`); answers the
 * account as now stored (the one given if it vanished meanwhile).
 */
export async function removeProfileImage(ctx: AppContext, account: Account, kind: ProfileImageKind): Promise<Account> {
  const old = kind === "avatar" ? account.avatarPath : account.headerPath;
  const now = new Date().toISOString();
  if (kind === "avatar") {
    await ctx.repos.accounts.update(account.id, {
      avatar_path: null,
      avatar_content_type: null,
      avatar_remote_url: null,
      updated_at: now,
    });
  } else {
    await ctx.repos.accounts.update(account.id, {
      header_path: null,
      header_content_type: null,
      header_remote_url: null,
      updated_at: now,
    });
  }
  await deleteBlobQuietly(ctx, old);
  await enqueueDelivery(ctx, { type: "actor.update", accountId: account.id });
  return (await ctx.repos.accounts.getById(account.id)) ?? account;
}
