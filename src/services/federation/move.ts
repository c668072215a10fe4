import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { follow, unfollow } from "../follows/follow.ts";

export const MOVE_FOLLOWERS_JOB = "federation.move-followers";
const PAGE = 100;

const logger = getLogger(["gannet", "federation", "move"]);

export interface MoveFollowersJob {
  originId: string;
  targetId: string;
  /** The last follow handled (paging across runs). */
  after?: string;
}

/**
 * A remote account moved (its Move was verified: the target names it in `alsoKnownAs`): local
 * followers of the old account follow the new one (through the follow service, which asks the
 * remote server and keeps their options) and stop following the old one; every local user's
 * note on the old account is copied to the new one. A page of followers per run.
 */
export async function moveFollowers(ctx: AppContext, job: MoveFollowersJob): Promise<void> {
  if (typeof job?.originId !== "string" || typeof job.targetId !== "string") return;
  const [origin, target] = await Promise.all([
    ctx.repos.accounts.getById(job.originId),
    ctx.repos.accounts.getById(job.targetId),
  ]);
  if (!origin || !target || origin.movedToAccountId !== target.id) return;
  if (job.after === undefined) {
    await ctx.repos.accountCuration.copyNotes(origin.id, target.id, () => ctx.ids.next(), new Date().toISOString());
  }
  const page = await ctx.repos.follows.localFollowersPage(origin.id, job.after ?? "0", PAGE);
  const followers = await ctx.repos.accounts.getByIds(page.map((p) => p.accountId));
  const byId = new Map(followers.map((a) => [a.id, a]));
  for (const row of page) {
    const account = byId.get(row.accountId);
    if (!account || account.id === target.id) continue;
    try {
      await follow(ctx, account, target.id, {
        showReblogs: row.showReblogs,
        notify: row.notify,
        languages: row.languages,
      });
      await unfollow(ctx, account, origin.id);
    } catch (error) {
      // A follower who blocks the new account (or is blocked by it) simply does not follow it.
      logger.info("{follower} does not follow {target} after the move: {error}", {
        follower: account.id,
        target: target.id,
        error: String(error),
      });
    }
  }
  const last = page.at(-1);
  if (page.length === PAGE && last) {
    await ctx.queue.enqueue(MOVE_FOLLOWERS_JOB, { ...job, after: last.followId } satisfies MoveFollowersJob);
  }
}
