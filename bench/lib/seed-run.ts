// The seeded instance and the harness's own user for `npm run bench` (bench/run.ts):
// each written by a process of its own (bench/seed.ts, bench/lib/setup-data.ts), whose printed
// ids and tokens are read back.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE, runChild } from "./children.ts";

const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));

export interface Seeded {
  readerId: string;
  readerToken: string;
  authorId: string;
  authorToken: string;
  relationshipIds: string[];
  tag: string;
  ms: number;
  counts: string;
}

/** Migrations, one confirmed user and one token, in a process of its own. Returns the token. */
export async function prepareData(env: NodeJS.ProcessEnv): Promise<string> {
  const out = await runChild(NODE, [join(BENCH_DIR, "lib/setup-data.ts")], { env }, 120_000);
  const token = /^BENCH_TOKEN=(\S+)$/m.exec(out)?.[1];
  if (!token) throw new Error(`setup printed no token:\n${out}`);
  return token;
}

/** The seeded instance (bench/seed.ts), written by a process of its own. */
export async function seedData(env: NodeJS.ProcessEnv): Promise<Seeded> {
  const t0 = performance.now();
  const out = await runChild(NODE, [join(BENCH_DIR, "seed.ts")], { env }, 600_000);
  const value = (key: string) => {
    const v = new RegExp(`^${key}=(\\S+)$`, "m").exec(out)?.[1];
    if (!v) throw new Error(`seed printed no ${key}:\n${out}`);
    return v;
  };
  return {
    readerId: value("SEED_READER_ID"),
    readerToken: value("SEED_READER_TOKEN"),
    authorId: value("SEED_AUTHOR_ID"),
    authorToken: value("SEED_AUTHOR_TOKEN"),
    relationshipIds: value("SEED_RELATIONSHIP_IDS").split(","),
    tag: value("SEED_TAG"),
    counts: value("SEED_COUNTS"),
    ms: performance.now() - t0,
  };
}
