// The seeded instance, generated in memory (no database here): accounts, follows, statuses with
// replies, boosts, mentions and hashtags, favourites, the home feeds as the fan-out job would have
// filled them, and the reader's notifications. Deterministic for a given seed; `bench/seed.ts`
// writes it to the database.
import { TAG_WORDS } from "./seed-words.ts";

export interface SeedShape {
  accounts: number;
  statuses: number;
  /** Accounts the reader (account 0) follows. */
  readerFollows: number;
  /** Local followers of the author (account 1). */
  authorFollowers: number;
  /** Home feeds keep this many entries (FEED_CAP in src/services/feeds/fan-out.ts). */
  feedCap: number;
  /** Statuses are spread over this many days before `now`. */
  days: number;
  seed: number;
  now: number;
}

export const DEFAULT_SHAPE: SeedShape = {
  accounts: 2000,
  statuses: 200_000,
  readerFollows: 500,
  authorFollowers: 1000,
  feedCap: 800,
  days: 60,
  seed: 20261122,
  now: Date.now(),
};

export const READER = 0;
export const AUTHOR = 1;

export type Vis = "public" | "unlisted" | "private" | "direct";
const VIS: Vis[] = ["public", "unlisted", "private", "direct"];
export const KIND_POST = 0;
export const KIND_REPLY = 1;
export const KIND_BOOST = 2;

/** Statuses as columns, indexed in chronological order (index order is id order). */
export interface SeedStatuses {
  n: number;
  author: Int32Array;
  time: Float64Array;
  kind: Uint8Array;
  /** 0 public, 1 unlisted, 2 private, 3 direct. */
  vis: Uint8Array;
  /** The replied-to status (replies) or the boosted one (boosts), else -1. */
  target: Int32Array;
  /** The thread's first post. */
  conversation: Int32Array;
  replies: Int32Array;
  reblogs: Int32Array;
  favourites: Int32Array;
  /** Mentioned accounts (for replies, the replied-to author first). */
  mentions: Map<number, number[]>;
  tags: Map<number, number[]>;
  words: Uint16Array;
  spoiler: Uint8Array;
  language: Uint8Array;
}

export interface SeedFollow {
  from: number;
  to: number;
  showReblogs: boolean;
  time: number;
}

export interface SeedNotification {
  type: "mention" | "reblog" | "favourite" | "follow";
  from: number;
  /** The post concerned (the original for boosts and favourites), or -1. */
  status: number;
  /** What caused it: a status index (mention, boost), a favourite index or a follow index. */
  cause: number;
  time: number;
}

export interface SeedData {
  shape: SeedShape;
  accountTimes: Float64Array;
  follows: SeedFollow[];
  statuses: SeedStatuses;
  tagNames: string[];
  /** [account, status, time], in time order. */
  favourites: { account: Int32Array; status: Int32Array; time: Float64Array; n: number };
  bookmarks: [number, number][];
  /** Per account, the status indexes of its home feed (oldest first, at most feedCap). */
  feeds: Int32Array[];
  notifications: SeedNotification[];
  languages: string[];
}

/** mulberry32: small, fast and deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Weighted sampling by binary search over cumulative weights. */
class Weighted {
  readonly #cum: Float64Array;
  constructor(weights: ArrayLike<number>) {
    this.#cum = new Float64Array(weights.length);
    let s = 0;
    for (let i = 0; i < weights.length; i++) {
      s += weights[i];
      this.#cum[i] = s;
    }
  }
  pick(r: number): number {
    const x = r * this.#cum[this.#cum.length - 1];
    let lo = 0;
    let hi = this.#cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#cum[mid] <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Zipf-like weights over a random ranking of n items. */
function powerLaw(n: number, exponent: number, offset: number, rand: () => number): Float64Array {
  const rank = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rank[i], rank[j]] = [rank[j], rank[i]];
  }
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 1 / (rank[i] + offset) ** exponent;
  return w;
}

const DAY = 86_400_000;

export function generate(shape: SeedShape = DEFAULT_SHAPE): SeedData {
  const rand = prng(shape.seed);
  const nA = shape.accounts;
  const chance = (p: number) => rand() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

  // Accounts: created over the year before the statuses begin.
  const start = shape.now - shape.days * DAY;
  const accountTimes = new Float64Array(nA);
  for (let i = 0; i < nA; i++) accountTimes[i] = start - 365 * DAY + Math.floor(rand() * 360 * DAY);
  accountTimes.sort();

  // Popularity (who is followed) and activity (who posts) are power-law and correlated.
  const popularity = powerLaw(nA, 1.0, 8, rand);
  const activity = new Float64Array(nA);
  for (let i = 0; i < nA; i++) activity[i] = popularity[i] ** 0.7 * (0.3 + rand());
  activity[READER] = activity[AUTHOR] = 0;
  const byPopularity = new Weighted(popularity);

  // Follows.
  const following: Set<number>[] = Array.from({ length: nA }, () => new Set<number>());
  const follows: SeedFollow[] = [];
  const follow = (from: number, to: number) => {
    if (from === to || following[from].has(to)) return;
    following[from].add(to);
    follows.push({ from, to, showReblogs: !chance(0.05), time: 0 });
  };
  const followMany = (from: number, k: number) => {
    let guard = k * 50;
    while (following[from].size < k && guard-- > 0) follow(from, byPopularity.pick(rand()));
  };
  for (let i = 0; i < nA; i++) {
    if (i === READER) continue;
    const r = rand();
    followMany(i, Math.min(nA - 1, Math.floor(8 + 150 * r * r * r)));
  }
  // The reader follows the author too (one of its readerFollows).
  if (shape.readerFollows > 0) follow(READER, AUTHOR);
  followMany(READER, Math.min(nA - 1, shape.readerFollows));
  // The author's followers: the first `authorFollowers` others, in a shuffled order.
  const others = Array.from({ length: nA - 2 }, (_, i) => i + 2);
  for (let i = others.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [others[i], others[j]] = [others[j], others[i]];
  }
  const authorFollowers = new Set<number>();
  if (following[READER].has(AUTHOR)) authorFollowers.add(READER);
  for (const a of others) if (authorFollowers.size < shape.authorFollowers) authorFollowers.add(a);
  for (const a of others) if (!authorFollowers.has(a)) following[a].delete(AUTHOR);
  for (const a of authorFollowers) if (!following[a].has(AUTHOR)) follow(a, AUTHOR);
  const followList = follows.filter((f) => f.to !== AUTHOR || authorFollowers.has(f.from));
  for (const f of followList) f.time = Math.max(accountTimes[f.from], accountTimes[f.to]) + Math.floor(rand() * DAY);
  followList.sort((a, b) => a.time - b.time);
  const showReblogs = new Map<string, boolean>(followList.map((f) => [`${f.from}:${f.to}`, f.showReblogs]));

  // Statuses: times over `days`, authors by activity (the reader and the author post a little).
  const n = shape.statuses;
  const time = new Float64Array(n);
  for (let i = 0; i < n; i++) time[i] = start + Math.floor(rand() * (shape.days * DAY - 60_000));
  time.sort();
  const s: SeedStatuses = {
    n,
    author: new Int32Array(n),
    time,
    kind: new Uint8Array(n),
    vis: new Uint8Array(n),
    target: new Int32Array(n).fill(-1),
    conversation: new Int32Array(n),
    replies: new Int32Array(n),
    reblogs: new Int32Array(n),
    favourites: new Int32Array(n),
    mentions: new Map(),
    tags: new Map(),
    words: new Uint16Array(n),
    spoiler: new Uint8Array(n),
    language: new Uint8Array(n),
  };
  const byActivity = new Weighted(activity);
  const nTags = 300;
  const tagNames = Array.from(
    { length: nTags },
    (_, i) => `${TAG_WORDS[i % TAG_WORDS.length]}${i < TAG_WORDS.length ? "" : i}`,
  );
  const byTag = new Weighted(powerLaw(nTags, 1.1, 1, rand));
  const boosted = new Set<string>();
  // Recent public or unlisted posts and replies (reply and boost targets), and a few long threads.
  const recent: number[] = [];
  const threads: number[] = [-1, -1, -1, -1];
  const languages = ["en", "en", "en", "en", "de", "fr", "ja", "es"];
  for (let i = 0; i < n; i++) {
    const r = rand();
    const author = r < 0.002 ? READER : r < 0.004 ? AUTHOR : byActivity.pick(rand());
    s.author[i] = author;
    s.conversation[i] = i;
    const k = rand();
    if (k < 0.1 && recent.length > 100) {
      // A boost of a recent public or unlisted post by someone else, once per account.
      const t = recent[recent.length - 1 - Math.floor(rand() * Math.min(recent.length, 5000))];
      if (s.author[t] !== author && !boosted.has(`${author}:${t}`)) {
        boosted.add(`${author}:${t}`);
        s.kind[i] = KIND_BOOST;
        s.vis[i] = 0;
        s.target[i] = t;
        s.reblogs[t]++;
        continue;
      }
    }
    const mentions: number[] = [];
    if (k < 0.3 && recent.length > 100) {
      // A reply: mostly to a recent post, sometimes the next step of a long thread.
      const slot = Math.floor(rand() * threads.length);
      const inThread = chance(0.15) && threads[slot] >= 0;
      const t = inThread
        ? threads[slot]
        : recent[recent.length - 1 - Math.floor(rand() * Math.min(recent.length, 3000))];
      s.kind[i] = KIND_REPLY;
      s.target[i] = t;
      s.conversation[i] = s.conversation[t];
      if (s.author[t] !== author) mentions.push(s.author[t]);
      if (inThread || chance(0.02)) threads[slot] = i;
    }
    const v = rand();
    s.vis[i] = v < 0.65 ? 0 : v < 0.8 ? 1 : v < 0.95 || s.kind[i] === KIND_REPLY ? 2 : 3;
    if (s.kind[i] === KIND_REPLY && s.vis[i] === 2 && chance(0.7)) s.vis[i] = 0;
    if (s.kind[i] === KIND_REPLY && s.vis[s.target[i]] <= 1 && s.vis[i] <= 1) s.replies[s.target[i]]++;
    // Mentions: a tenth of posts, a few of them mention-heavy; direct posts mention someone.
    const m = rand();
    const extra = m < 0.01 ? int(10, 20) : m < 0.1 || s.vis[i] === 3 ? int(1, 3) : 0;
    for (let j = 0; j < extra; j++) {
      const who = byPopularity.pick(rand());
      if (who !== author && !mentions.includes(who)) mentions.push(who);
    }
    if (chance(0.003) && author !== READER && !mentions.includes(READER)) mentions.push(READER);
    if (mentions.length > 0) s.mentions.set(i, mentions);
    if (s.vis[i] === 3 && mentions.length === 0) s.vis[i] = 2;
    if (chance(0.2)) {
      const tags = new Set<number>();
      const count = int(1, 3);
      for (let j = 0; j < count; j++) tags.add(byTag.pick(rand()));
      s.tags.set(i, [...tags]);
    }
    s.words[i] = int(4, 50);
    s.spoiler[i] = chance(0.03) ? 1 : 0;
    s.language[i] = Math.floor(rand() * languages.length);
    if (s.vis[i] <= 1) recent.push(i);
  }

  // Favourites: public and unlisted posts get a few, popular authors more; the reader's posts some.
  const favAccount: number[] = [];
  const favStatus: number[] = [];
  const favTime: number[] = [];
  const faved = new Set<string>();
  const favourite = (a: number, t: number) => {
    if (a === s.author[t] || faved.has(`${a}:${t}`)) return;
    faved.add(`${a}:${t}`);
    favAccount.push(a);
    favStatus.push(t);
    favTime.push(Math.min(shape.now - 1000, s.time[t] + Math.floor(rand() * 6 * 3600_000)));
    s.favourites[t]++;
  };
  for (let i = 0; i < n; i++) {
    if (s.kind[i] === KIND_BOOST || s.vis[i] > 1) continue;
    const count = Math.floor(-Math.log(1 - rand()) * (0.2 + 3 * popularity[s.author[i]] ** 0.5));
    for (let j = 0; j < Math.min(count, 200); j++) favourite(byPopularity.pick(rand()), i);
    if (s.author[i] === READER) for (let j = int(0, 6); j > 0; j--) favourite(int(2, nA - 1), i);
  }
  // Home feeds, as the fan-out job leaves them (see FeedsRepository.fanOut), newest feedCap kept.
  const byAuthor: number[][] = Array.from({ length: nA }, () => []);
  const directTo: number[][] = Array.from({ length: nA }, () => []);
  for (let i = 0; i < n; i++) {
    byAuthor[s.author[i]].push(i);
    if (s.vis[i] === 3) for (const a of s.mentions.get(i) ?? []) if (a !== s.author[i]) directTo[a].push(i);
  }
  const feeds: Int32Array[] = [];
  for (let owner = 0; owner < nA; owner++)
    feeds.push(feedOf(owner, s, byAuthor, directTo, following, showReblogs, shape.feedCap));

  // The reader's bookmarks: some posts of its feed (enough for a full page of 40, and deeper).
  const bookmarks: [number, number][] = [];
  for (const t of feeds[READER]) if (chance(0.07) && s.kind[t] !== KIND_BOOST) bookmarks.push([READER, t]);
  for (const t of feeds[READER]) if (chance(0.05) && s.kind[t] !== KIND_BOOST && s.vis[t] <= 1) favourite(READER, t);
  // (After the reader's favourites above: before, they were left out of the list written.)
  const favOrder = Array.from(favTime.keys()).sort((a, b) => favTime[a] - favTime[b]);
  const favourites = {
    n: favOrder.length,
    account: Int32Array.from(favOrder, (x) => favAccount[x]),
    status: Int32Array.from(favOrder, (x) => favStatus[x]),
    time: Float64Array.from(favOrder, (x) => favTime[x]),
  };

  // The reader's notifications: mentions, boosts and favourites of its posts, new followers.
  const notifications: SeedNotification[] = [];
  for (let i = 0; i < n; i++) {
    if (s.author[i] === READER) continue;
    if (s.kind[i] === KIND_BOOST && s.author[s.target[i]] === READER) {
      notifications.push({ type: "reblog", from: s.author[i], status: s.target[i], cause: i, time: s.time[i] });
    } else if (s.mentions.get(i)?.includes(READER)) {
      notifications.push({ type: "mention", from: s.author[i], status: i, cause: i, time: s.time[i] });
    }
  }
  for (let f = 0; f < favourites.n; f++) {
    const t = favourites.status[f];
    if (s.author[t] === READER) {
      notifications.push({
        type: "favourite",
        from: favourites.account[f],
        status: t,
        cause: f,
        time: favourites.time[f],
      });
    }
  }
  followList.forEach((f, i) => {
    if (f.to === READER) notifications.push({ type: "follow", from: f.from, status: -1, cause: i, time: f.time });
  });
  notifications.sort((a, b) => a.time - b.time);

  return {
    shape,
    accountTimes,
    follows: followList,
    statuses: s,
    tagNames,
    favourites,
    bookmarks,
    feeds,
    notifications,
    languages,
  };
}

/** One account's home feed: candidates newest first through a k-way merge, then the fan-out rules. */
function feedOf(
  owner: number,
  s: SeedStatuses,
  byAuthor: number[][],
  directTo: number[][],
  following: Set<number>[],
  showReblogs: Map<string, boolean>,
  cap: number,
): Int32Array {
  const lists = [byAuthor[owner], directTo[owner], ...[...following[owner]].map((a) => byAuthor[a])];
  // Max-heap of [status index, list index, position].
  const heap: [number, number, number][] = [];
  const push = (e: [number, number, number]) => {
    heap.push(e);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p][0] >= heap[i][0]) break;
      [heap[p], heap[i]] = [heap[i], heap[p]];
      i = p;
    }
  };
  const pop = (): [number, number, number] | undefined => {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l][0] > heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] > heap[m][0]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
    return top;
  };
  lists.forEach((list, li) => {
    if (list.length > 0) push([list[list.length - 1], li, list.length - 1]);
  });
  const picked: number[] = [];
  let last = -1;
  // A little more than the cap, so the boost rule below still leaves a full feed.
  while (picked.length < cap * 1.25 && heap.length > 0) {
    const top = pop();
    if (!top) break;
    const [i, li, pos] = top;
    if (pos > 0) push([lists[li][pos - 1], li, pos - 1]);
    if (i === last) continue;
    last = i;
    const author = s.author[i];
    let ok: boolean;
    if (author === owner) ok = true;
    else if (s.vis[i] === 3) ok = li === 1;
    else if (li === 1) ok = false;
    else if (s.kind[i] === KIND_BOOST) ok = showReblogs.get(`${owner}:${author}`) !== false;
    else if (s.kind[i] === KIND_REPLY) {
      const to = s.author[s.target[i]];
      ok = to === author || to === owner || following[owner].has(to);
    } else ok = true;
    if (ok) picked.push(i);
  }
  // Oldest first: a boost is left out when the feed already holds its post or another boost of it.
  picked.reverse();
  const held = new Set<number>();
  const kept: number[] = [];
  for (const i of picked) {
    if (s.kind[i] === KIND_BOOST) {
      const t = s.target[i];
      if (held.has(t)) continue;
      held.add(t);
    } else held.add(i);
    kept.push(i);
  }
  return Int32Array.from(kept.slice(-cap));
}

export function visibilityOf(v: number): Vis {
  return VIS[v];
}
