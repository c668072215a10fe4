// The web side's part of `npm run bench` (bench/run.ts): the seeded author's public profile page
// (`/@author`) and one of its public posts' page (`/@author/:id`), as an anonymous browser asks
// them, and the RSS feed of the seeded instance's busiest hashtag (`/tags/:tag.rss`). Each is
// measured closed loop beside the bare server serving its body (the ratio), and the two pages also
// open loop at a fixed rate, for their p99.
import { get } from "./http.ts";
import type { Report, TargetResult, WorkloadResult } from "./report.ts";

export const PROFILE_PAGE = "GET /@author (profile page)";
export const STATUS_PAGE = "GET /@author/:id (status page)";
export const TAG_FEED = "GET /tags/:tag.rss (hashtag feed)";
/** The ratio each must reach against the bare server with the same body (issue 18). */
export const WEB_TARGET = 0.3;
/** The pages' p99 at `WEB_RATE` requests per second (open loop). */
export const WEB_P99_TARGET_MS = 50;
export const WEB_RATE = 500;

const bareName = (what: string) => `bare node:http (${what}'s body)`;
const atRate = (name: string) => `${name}, latency`;

interface WebTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
  baseline?: string;
  rate?: number;
}

/**
 * The web workloads the run wants, each probed once (its body, for the bare server and the
 * report): the page of the author's newest public post that is not a reply is found through the
 * API. Returns the closed-loop and open-loop workloads and the bare pages to serve.
 */
export async function prepareWebPages(
  origin: string,
  seeded: { authorId: string; tag: string },
  wanted: (name: string) => boolean,
  probes: Report["probes"],
  notes: string[],
  log: (m: string) => void,
): Promise<{ targets: WebTarget[]; pages: { name: string; body: Buffer }[] }> {
  const targets: WebTarget[] = [];
  const pages: { name: string; body: Buffer }[] = [];
  const list = await get(
    `${origin}/api/v1/accounts/${seeded.authorId}/statuses?exclude_replies=true&exclude_reblogs=true&limit=40`,
  );
  const statuses = JSON.parse(list.body.toString("utf8")) as { id: string; visibility: string }[];
  const post = statuses.find((s) => s.visibility === "public");
  const all = [
    { name: PROFILE_PAGE, path: "/@author", what: "the profile page", open: true },
    ...(post ? [{ name: STATUS_PAGE, path: `/@author/${post.id}`, what: "the status page", open: true }] : []),
    { name: TAG_FEED, path: `/tags/${encodeURIComponent(seeded.tag)}.rss`, what: "the hashtag feed", open: false },
  ];
  if (!post) notes.push("The author had no public post among its latest 40: the status page was not measured.");
  const described: string[] = [];
  for (const w of all) {
    if (!wanted(w.name) && !(w.open && wanted(atRate(w.name)))) continue;
    const a = await get(`${origin}${w.path}`);
    probes.push({ path: w.path, status: a.status, contentType: a.contentType, bytes: a.body.length });
    log(`probe ${w.path}: ${a.status} ${a.contentType} ${a.body.length} B`);
    if (a.status !== 200) notes.push(`${w.path} answered ${a.status} when probed: its figures are not throughput.`);
    const baseline = bareName(w.what);
    if (wanted(w.name)) {
      pages.push({ name: baseline, body: a.body });
      targets.push({ name: w.name, url: `${origin}${w.path}`, headers: {}, baseline });
    }
    if (w.open && wanted(atRate(w.name))) {
      targets.push({ name: atRate(w.name), url: `${origin}${w.path}`, headers: {}, rate: WEB_RATE });
    }
    described.push(`${w.path} (${a.body.length} bytes)`);
  }
  if (described.length > 0) {
    notes.push(
      `Web pages, asked anonymously: ${described.join(", ")}; the hashtag is the seed's busiest, #${seeded.tag}. ` +
        `Each is compared with the bare server serving its body; the pages are also asked open loop at ${WEB_RATE} req/s for their p99.`,
    );
  }
  return { targets, pages };
}

/** Issue 18's targets: each page and the feed at 30% of the bare server's rate; the pages' p99 under 50 ms at 500 req/s. */
export function webPageTargets(workloads: WorkloadResult[]): TargetResult[] {
  const out: TargetResult[] = [];
  for (const name of [PROFILE_PAGE, STATUS_PAGE, TAG_FEED]) {
    const w = workloads.find((x) => x.name === name);
    const bare = w?.baseline ? workloads.find((x) => x.name === w.baseline)?.median : undefined;
    if (w && bare) {
      const r = w.median.okRps / bare.okRps;
      out.push({
        what: `${name} vs bare server, same body (2xx req/s)`,
        figure: `${(r * 100).toFixed(0)}% (${Math.round(w.median.okRps)} / ${Math.round(bare.okRps)})`,
        goal: `≥ ${WEB_TARGET * 100}%`,
        pass: r >= WEB_TARGET && w.median.non2xx === 0,
      });
    }
    const open = workloads.find((x) => x.name === atRate(name))?.median;
    if (open) {
      out.push({
        what: `${name} p99 (open loop, ${WEB_RATE} req/s)`,
        figure: `${open.p99Ms.toFixed(2)} ms (p50 ${open.p50Ms.toFixed(2)} ms)`,
        goal: `< ${WEB_P99_TARGET_MS} ms`,
        pass: open.p99Ms < WEB_P99_TARGET_MS && open.non2xx === 0,
      });
    }
  }
  return out;
}
