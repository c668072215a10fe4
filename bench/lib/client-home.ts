// The web client's part of `npm run bench` (bench/run.ts): the signed-in home page (`/home`, first
// render with 40 posts) of the seeded reader, measured closed loop beside the bare server serving its
// body, and the size of what a browser downloads for it before images: the page's HTML and the
// client's scripts, gzip-compressed (issue 19: at least 30% of the bare server, under 100 KB).
// The reader's browser session is made through the sign-in form, as a person's would be.
import { gzipSync } from "node:zlib";
import { get } from "./http.ts";
import type { Report, TargetResult, WorkloadResult } from "./report.ts";

export const HOME_PAGE = "GET /home (web client home-page, signed-in reader, 40 posts)";
export const HOME_PAGE_BARE = "bare node:http (the home page's body)";
/** The home page's rate against the bare server with the same body. */
export const HOME_PAGE_TARGET = 0.3;
/** The page's HTML and scripts, gzip-compressed, in bytes. */
export const HOME_PAGE_BYTES = 100 * 1024;
/** The scripts the client's pages load (client/layout.ts CLIENT_SCRIPTS). */
const SCRIPTS = [
  "client-render.js",
  "client-core.js",
  "client-timelines.js",
  "client-pages.js",
  "client-compose.js",
  "client-actions.js",
];
/** The seeded users' password and e-mail domain (bench/seed.ts). */
const PASSWORD = "benchmark-password";
const EMAIL = "reader@bench.example";

/** The Set-Cookie headers' `name=value`, over what the jar held. */
function keep(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const eq = pair.indexOf("=");
    jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}
const cookieOf = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

/** The reader's signed-in session cookie, through the sign-in form (its CSRF token, e-mail and password). */
export async function signInReader(origin: string): Promise<string> {
  const jar = new Map<string, string>();
  const form = await fetch(`${origin}/auth/sign_in`, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
  keep(jar, form);
  const csrf = /name="authenticity_token" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error(`the sign-in form has no CSRF token (${form.status})`);
  const done = await fetch(`${origin}/auth/sign_in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: cookieOf(jar) },
    body: new URLSearchParams({ authenticity_token: csrf, email: EMAIL, password: PASSWORD }),
    signal: AbortSignal.timeout(10_000),
  });
  await done.arrayBuffer();
  if (done.status < 300 || done.status >= 400) throw new Error(`signing the reader in answered ${done.status}`);
  keep(jar, done);
  return cookieOf(jar);
}

/** The size figures of the page: its HTML and its scripts, each gzip-compressed (level 6, as a server would). */
export interface PageWeight {
  htmlBytes: number;
  htmlGzip: number;
  scripts: { name: string; bytes: number; gzip: number }[];
  totalGzip: number;
}

async function weigh(origin: string, html: Buffer): Promise<PageWeight> {
  const page = html.toString("utf8");
  const scripts: PageWeight["scripts"] = [];
  for (const name of SCRIPTS) {
    const src = new RegExp(`src="(/assets/${name.replace(".", "\\.")}[^"]*)"`).exec(page)?.[1];
    if (!src) throw new Error(`the home page does not load ${name}`);
    const a = await get(`${origin}${src.replace(/&amp;/g, "&")}`);
    if (a.status !== 200) throw new Error(`${src} answered ${a.status}`);
    scripts.push({ name, bytes: a.body.length, gzip: gzipSync(a.body).length });
  }
  const htmlGzip = gzipSync(html).length;
  return {
    htmlBytes: html.length,
    htmlGzip,
    scripts,
    totalGzip: htmlGzip + scripts.reduce((n, s) => n + s.gzip, 0),
  };
}

/**
 * Signs the reader in, probes `/home` (its body goes to the bare server), weighs the page, and
 * returns the workload; nothing when the run does not want it.
 */
export async function prepareHomePage(
  origin: string,
  wanted: (name: string) => boolean,
  probes: Report["probes"],
  notes: string[],
  log: (m: string) => void,
): Promise<{
  targets: { name: string; url: string; headers: Record<string, string>; baseline: string }[];
  pages: { name: string; body: Buffer }[];
  weight?: PageWeight;
}> {
  if (!wanted(HOME_PAGE)) return { targets: [], pages: [] };
  const cookie = await signInReader(origin);
  const headers = { cookie };
  const a = await get(`${origin}/home`, headers);
  probes.push({ path: "/home (signed in)", status: a.status, contentType: a.contentType, bytes: a.body.length });
  const posts = (a.body.toString("utf8").match(/<li data-id="/g) ?? []).length;
  log(`probe /home: ${a.status} ${a.contentType} ${a.body.length} B, ${posts} posts`);
  if (a.status !== 200) notes.push(`/home answered ${a.status} when probed: its figures are not throughput.`);
  const weight = await weigh(origin, a.body);
  notes.push(
    `Web client home page: the seeded reader signed in through the sign-in form; /home held ${posts} posts ` +
      `(${a.body.length} bytes of HTML, ${weight.htmlGzip} gzipped); its scripts gzipped: ` +
      `${weight.scripts.map((s) => `${s.name} ${s.gzip} B (${s.bytes} B plain)`).join(", ")}. ` +
      "It is compared with the bare server serving the same body.",
  );
  return {
    targets: [{ name: HOME_PAGE, url: `${origin}/home`, headers, baseline: HOME_PAGE_BARE }],
    pages: [{ name: HOME_PAGE_BARE, body: a.body }],
    weight,
  };
}

/** Issue 19's targets: the home page at 30% of the bare server's rate, its HTML and scripts under 100 KB gzipped. */
export function homePageTargets(workloads: WorkloadResult[], weight: PageWeight | undefined): TargetResult[] {
  const out: TargetResult[] = [];
  const w = workloads.find((x) => x.name === HOME_PAGE);
  const bare = workloads.find((x) => x.name === HOME_PAGE_BARE)?.median;
  if (w && bare) {
    const r = w.median.okRps / bare.okRps;
    out.push({
      what: `${HOME_PAGE} vs bare server, same body (2xx req/s)`,
      figure: `${(r * 100).toFixed(0)}% (${Math.round(w.median.okRps)} / ${Math.round(bare.okRps)})`,
      goal: `≥ ${HOME_PAGE_TARGET * 100}% of bare`,
      pass: r >= HOME_PAGE_TARGET && w.median.non2xx === 0,
    });
  }
  if (weight) {
    out.push({
      what: "/home HTML + client scripts, gzip-compressed (before images)",
      figure: `${(weight.totalGzip / 1024).toFixed(1)} KB`,
      goal: `< ${HOME_PAGE_BYTES / 1024} KB`,
      pass: weight.totalGzip < HOME_PAGE_BYTES,
    });
  }
  return out;
}
