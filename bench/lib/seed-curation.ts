// The seed's blocks, mutes, lists, endorsements and notes (bench/seed.ts), written after the bulk
// tables through the services the API calls, so each has its effects as on a live instance:
// a block ends the follows both ways and clears both home feeds, a mute clears the muter's
// feed, a list member's recent posts are back-filled into the list timeline.
//
// The reader blocks 10 accounts and mutes 10 (three of each among the author's 40 newest
// followers, so the followers page hides them; four of the mutes are accounts it follows);
// 5 accounts block the reader; 20 accounts the reader follows each block 2 and mute 3 others;
// the reader keeps 4 lists (one exclusive, each replies_policy), endorses 5 accounts and has
// notes on 5; 30 of the author's followers keep a list holding the author.
import type { AppContext } from "../../src/context.ts";
import type { Account } from "../../src/db/repositories/accounts.ts";
import { addAccounts, createList } from "../../src/services/lists/lists.ts";
import { block, mute } from "../../src/services/relationships/blocks-mutes.ts";
import { endorse, setNote } from "../../src/services/relationships/endorsements-notes.ts";
import { AUTHOR, prng, READER, type SeedData } from "./seed-data.ts";

export interface Curation {
  /** 40 account ids for the relationships workload: followed, followers, blocked, muted and others. */
  relationshipIds: string[];
  counts: Record<string, number>;
}

const MONTH_S = 30 * 86_400;

export async function curate(ctx: AppContext, data: SeedData, accountIds: string[]): Promise<Curation> {
  const rand = prng(data.shape.seed + 3);
  const nA = data.shape.accounts;
  const following: Set<number>[] = Array.from({ length: nA }, () => new Set<number>());
  const followerCount = new Int32Array(nA);
  const readerFollowers = new Set<number>();
  const authorFollowers: number[] = [];
  for (const f of data.follows) {
    following[f.from].add(f.to);
    followerCount[f.to]++;
    if (f.to === READER) readerFollowers.add(f.from);
    if (f.to === AUTHOR && f.from !== READER) authorFollowers.push(f.from);
  }
  const readerFollows = [...following[READER]].filter((a) => a !== AUTHOR);
  // Newest first: the first page of the author's followers.
  const authorPage = authorFollowers.slice(-40).reverse();
  const byPopularity = Array.from({ length: nA }, (_, i) => i).sort((a, b) => followerCount[b] - followerCount[a]);
  const strangers = byPopularity.filter(
    (a) => a !== READER && a !== AUTHOR && !following[READER].has(a) && !readerFollowers.has(a),
  );

  const used = new Set<number>([READER, AUTHOR]);
  /** k accounts of `pool` not used yet, picked at random (deterministic), marked used. */
  const pick = (pool: readonly number[], k: number, mark = true): number[] => {
    const free = pool.filter((a) => !used.has(a));
    for (let i = free.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [free[i], free[j]] = [free[j], free[i]];
    }
    const out = free.slice(0, k);
    if (mark) for (const a of out) used.add(a);
    return out;
  };
  const accounts = new Map<number, Account>();
  const account = async (i: number): Promise<Account> => {
    let a = accounts.get(i);
    if (!a) {
      a = await ctx.repos.accounts.getById(accountIds[i]);
      if (!a) throw new Error(`seeded account ${i} is missing`);
      accounts.set(i, a);
    }
    return a;
  };
  const counts: Record<string, number> = {};
  const bump = (k: string, n = 1) => {
    counts[k] = (counts[k] ?? 0) + n;
  };

  // The reader's blocks and mutes, and the accounts blocking the reader.
  const reader = await account(READER);
  const readerBlocks = [...pick(authorPage, 3), ...pick(strangers.slice(0, 150), 7)];
  for (const t of readerBlocks) await block(ctx, reader, accountIds[t]);
  const readerMutes = [...pick(authorPage, 3), ...pick(readerFollows, 4), ...pick(strangers.slice(0, 150), 3)];
  for (const [n, t] of readerMutes.entries()) {
    await mute(ctx, reader, accountIds[t], { notifications: n % 4 !== 3, duration: n % 5 === 4 ? MONTH_S : 0 });
  }
  const blockers = [...pick(authorPage, 1), ...pick(strangers.slice(0, 300), 4)];
  for (const b of blockers) await block(ctx, await account(b), accountIds[READER]);
  bump("blocks", readerBlocks.length + blockers.length);
  bump("mutes", readerMutes.length);

  // Accounts the reader follows block and mute others (never the reader or the author).
  const others = Array.from({ length: nA - 2 }, (_, i) => i + 2);
  for (const who of pick(readerFollows, 20)) {
    const me = await account(who);
    const targets = pick(
      others.filter((a) => a !== who),
      5,
      false,
    );
    for (const t of targets.slice(0, 2)) await block(ctx, me, accountIds[t]);
    for (const t of targets.slice(2)) await mute(ctx, me, accountIds[t], { notifications: true, duration: 0 });
    bump("blocks", 2);
    bump("mutes", 3);
  }

  // Lists: only accounts still followed (blocks ended some follows) may be members.
  const stillFollowed = async (owner: number, candidates: number[]) => {
    const ok = await ctx.repos.follows.followedAmong(
      accountIds[owner],
      candidates.map((a) => accountIds[a]),
    );
    return candidates.filter((a) => ok.has(accountIds[a]));
  };
  const readerPool = await stillFollowed(READER, readerFollows);
  const shuffledPool = () => {
    const p = [...readerPool];
    for (let i = p.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [p[i], p[j]] = [p[j], p[i]];
    }
    return p;
  };
  const readerLists = [
    { title: "Friends", repliesPolicy: "followed" as const, exclusive: false, size: 25, withAuthor: true },
    { title: "Tech", repliesPolicy: "list" as const, exclusive: false, size: 30, withAuthor: false },
    { title: "News", repliesPolicy: "none" as const, exclusive: true, size: 15, withAuthor: false },
    { title: "Neighbourhood", repliesPolicy: "list" as const, exclusive: false, size: 20, withAuthor: true },
  ];
  const inReaderLists = new Set<number>();
  for (const l of readerLists) {
    const list = await createList(ctx, reader, l);
    const members = shuffledPool().slice(0, l.size - (l.withAuthor ? 1 : 0));
    if (l.withAuthor) members.push(AUTHOR);
    await addAccounts(
      ctx,
      reader,
      list.id,
      members.map((a) => accountIds[a]),
    );
    for (const m of members) inReaderLists.add(m);
    bump("lists");
    bump("list_accounts", members.length);
  }
  // Followers of the author listing it, so posting by the author fans out to list timelines too.
  for (const owner of pick(authorFollowers, 30)) {
    const me = await account(owner);
    const list = await createList(ctx, me, { title: "Favourites", repliesPolicy: "list", exclusive: false });
    const friends = await stillFollowed(
      owner,
      [...following[owner]].filter((a) => a !== AUTHOR && a !== READER),
    );
    const members = [AUTHOR, ...friends.slice(0, 10)];
    await addAccounts(
      ctx,
      me,
      list.id,
      members.map((a) => accountIds[a]),
    );
    bump("lists");
    bump("list_accounts", members.length);
  }

  // Endorsements and private notes of the reader.
  const endorsed = pick(readerPool, 5);
  for (const t of endorsed) await endorse(ctx, reader, accountIds[t]);
  const noted = [...pick(readerPool, 2), ...pick(strangers, 3)];
  for (const t of noted) await setNote(ctx, reader, accountIds[t], `Met at the ${t % 2 ? "meetup" : "conference"}.`);
  bump("endorsements", endorsed.length);
  bump("account_notes", noted.length);

  // The relationships workload's 40 ids: a page of people as a client shows them.
  const rel: number[] = [
    ...readerPool.filter((a) => inReaderLists.has(a)).slice(0, 6),
    ...endorsed.slice(0, 2),
    ...readerPool.filter((a) => !inReaderLists.has(a)).slice(0, 6),
    ...[...readerFollowers].filter((a) => !following[READER].has(a) && !blockers.includes(a)).slice(0, 6),
    ...readerBlocks.slice(0, 4),
    ...readerMutes.slice(0, 4),
    ...blockers.slice(0, 3),
    ...noted.slice(2, 5),
    AUTHOR,
  ];
  for (const a of byPopularity) {
    if (rel.length >= 40) break;
    if (!rel.includes(a) && a !== READER) rel.push(a);
  }
  return { relationshipIds: [...new Set(rel)].slice(0, 40).map((a) => accountIds[a]), counts };
}
