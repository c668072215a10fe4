import type { Block } from "@fedify/vocab";
import { removeFromListsOnBlock } from "../../services/lists/lists.ts";
import { listener, localAccountOf } from "./common.ts";

/**
 * Block of a local account by the sender, as Mastodon's: the follows and requests end both ways,
 * the sender's posts leave the local account's home and lists, and the block is recorded, which
 * hides the sender's posts and profile from the local account (an account that blocks you is
 * hidden from you everywhere).
 */
export const onBlock = listener<Block>("Block", async (ctx, activity, sender) => {
  const target = await localAccountOf(ctx, activity.objectId);
  if (!target) return;
  const app = ctx.data;
  await app.db.transaction().execute(async (trx) => {
    await app.repos.follows.lockPair(sender.id, target.id, trx);
    await app.repos.relationships.insertBlock(
      {
        id: app.ids.next(),
        account_id: sender.id,
        target_account_id: target.id,
        uri: activity.id?.href ?? null,
        created_at: new Date().toISOString(),
      },
      trx,
    );
    await app.repos.follows.severBetween(sender.id, target.id, trx);
    await app.repos.relationships.clearFromFeed(target.id, sender.id, trx);
    await removeFromListsOnBlock(app, sender.id, target.id, trx);
  });
});
