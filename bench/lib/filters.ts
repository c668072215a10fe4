// The reader's keyword filters for the filtered home timeline workload: 20 v2 filters of 5
// keywords each, created through the API (`POST /api/v2/filters` with `keywords_attributes`)
// against the started server, so they are stored exactly as a client would leave them.
//
// The keywords are what people filter: most match none of the seeded posts (their words come
// from bench/lib/seed-words.ts), some match hashtags (`politics` without `whole_word` also
// matches `#politics17`), the content warning "Spoilers ahead" of 3% of posts, or one common
// word ("concert"), so about a third of a home page carries a FilterResult and a few posts are
// hidden. The probe before the load counts both (see run.ts).

export interface BenchFilter {
  title: string;
  context: string[];
  action: "warn" | "hide";
  /** Seconds; absent for a filter without an end. */
  expiresIn?: number;
  keywords: { keyword: string; wholeWord: boolean }[];
}

const kw = (spec: string) =>
  spec.split(",").map((k) => {
    const t = k.trim();
    // A trailing `*` marks a keyword matched anywhere in a word (whole_word false).
    return t.endsWith("*") ? { keyword: t.slice(0, -1), wholeWord: false } : { keyword: t, wholeWord: true };
  });

const HOME = ["home"];
const EVERYWHERE = ["home", "notifications", "public", "thread", "account"];
const MONTH = 30 * 86_400;

export const BENCH_FILTERS: BenchFilter[] = [
  {
    title: "Politics",
    context: EVERYWHERE,
    action: "hide",
    keywords: kw("politics*, election, senate, parliament, referendum"),
  },
  {
    title: "Spoilers",
    context: HOME,
    action: "hide",
    expiresIn: MONTH,
    keywords: kw("spoiler*, finale, plot twist, leaked, season finale"),
  },
  {
    title: "Football",
    context: ["home", "public"],
    action: "hide",
    keywords: kw("football*, offside, penalty, transfer window, match report"),
  },
  { title: "Crypto", context: EVERYWHERE, action: "warn", keywords: kw("crypto*, bitcoin, nft, blockchain, web3") },
  { title: "Gigs", context: HOME, action: "warn", keywords: kw("concert, setlist, tour dates, tickets, encore") },
  { title: "Cats", context: HOME, action: "warn", keywords: kw("#caturday, kitten*, meow, purr*, catnip") },
  { title: "Dogs", context: HOME, action: "warn", keywords: kw("dogsofmastodon*, puppy, woof, doggo, leash") },
  {
    title: "Climate anxiety",
    context: ["home", "public"],
    action: "warn",
    keywords: kw("climate*, emissions, heatwave, wildfire, drought"),
  },
  { title: "Space", context: HOME, action: "warn", keywords: kw("space, rocket*, launch, nasa, orbit") },
  {
    title: "Tech drama",
    context: ["home", "thread"],
    action: "warn",
    keywords: kw("twitter, elon, ai hype, chatgpt, llm"),
  },
  { title: "Linux", context: HOME, action: "warn", keywords: kw("linux*, kernel, distro, systemd, wayland") },
  { title: "Rust", context: HOME, action: "warn", keywords: kw("rust, borrow checker, cargo, crate, unsafe") },
  {
    title: "Food",
    context: HOME,
    action: "warn",
    expiresIn: MONTH,
    keywords: kw("cooking*, recipe*, sourdough, vegan, brunch"),
  },
  { title: "Travel", context: HOME, action: "warn", keywords: kw("travel*, airport, flight delay, jetlag, hotel") },
  { title: "Fitness", context: HOME, action: "warn", keywords: kw("cycling*, marathon, gym, workout, strava") },
  { title: "History", context: HOME, action: "warn", keywords: kw("history, ww2, medieval, archaeology, empire") },
  {
    title: "News",
    context: ["home", "public"],
    action: "warn",
    keywords: kw("breaking, news, headline, op-ed, paywall"),
  },
  { title: "Privacy", context: HOME, action: "warn", keywords: kw("privacy*, surveillance, tracking, gdpr, cookies") },
  { title: "Knitting", context: HOME, action: "warn", keywords: kw("knitting*, yarn, crochet*, stitch, pattern") },
  { title: "Poetry", context: HOME, action: "warn", keywords: kw("poetry*, haiku, sonnet, verse, stanza") },
];

/** The API request body of one filter. */
export function filterRequest(f: BenchFilter): Record<string, unknown> {
  return {
    title: f.title,
    context: f.context,
    filter_action: f.action,
    ...(f.expiresIn === undefined ? {} : { expires_in: f.expiresIn }),
    keywords_attributes: f.keywords.map((k) => ({ keyword: k.keyword, whole_word: k.wholeWord })),
  };
}

/** Creates the filters through `POST /api/v2/filters` as the token's owner; throws unless each is 200. */
export async function createFiltersThroughApi(origin: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (const f of BENCH_FILTERS) {
    const res = await fetch(`${origin}/api/v2/filters`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(filterRequest(f)),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`POST /api/v2/filters (${f.title}) answered ${res.status}: ${body}`);
    const json = JSON.parse(body) as { id: string; keywords: unknown[] };
    if (json.keywords.length !== f.keywords.length)
      throw new Error(`filter ${f.title} stored ${json.keywords.length} keywords`);
    ids.push(json.id);
  }
  return ids;
}
