export interface Options {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  runs: number;
  /** PostgreSQL server to run on (a fresh database is created there), or undefined for SQLite. */
  postgresUrl?: string;
  /**
   * `--redis[=URL]`: the server gets REDIS_URL (event bus, job queue, rate limits in Redis);
   * otherwise none, and on PostgreSQL the bus is LISTEN/NOTIFY.
   */
  redisUrl?: string;
  /** Posts per second in the (open-loop) posting workload. */
  postRate: number;
  /** Posts measured one at a time for the fan-out delay. */
  fanOutSamples: number;
  /** Home timeline requests per second (open loop) while the trends are scored. */
  trendRate: number;
  /** Trends scoring runs measured one after another. */
  trendRuns: number;
  /** Only the workloads whose name contains one of these (BENCH_ONLY=home,post); all when empty. */
  only: string[];
  /** `--split`: the home timeline and posting on one process, then on split processes (bench/split.ts). */
  split: boolean;
}

const DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/postgres";
const DEFAULT_REDIS = "redis://127.0.0.1:6379";

/** A whole-number setting from the environment (`fallback` when unset), at least `min`. */
export function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${v}"`);
  return n;
}

/**
 * `--quick` picks short defaults; BENCH_* variables override either set. `--postgres[=URL]` (or
 * DATABASE_URL in the environment) runs on PostgreSQL; `--split` (with it) compares one process
 * with the roles split over processes.
 */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const unknown = argv.filter((a) => a !== "--quick" && a !== "--split" && !/^--(postgres|redis)(=.+)?$/.test(a));
  if (unknown.length > 0) {
    throw new Error(`unknown argument ${unknown[0]} (only --quick, --postgres[=URL], --redis[=URL] and --split)`);
  }
  const redisFlag = argv.find((a) => a.startsWith("--redis"));
  const quick = argv.includes("--quick");
  const pgFlag = argv.find((a) => a.startsWith("--postgres"));
  const postgresUrl = pgFlag ? pgFlag.split("=")[1] || env.DATABASE_URL || DEFAULT_PG : env.DATABASE_URL || undefined;
  const split = argv.includes("--split");
  if (split && !postgresUrl) throw new Error("--split needs PostgreSQL (--postgres[=URL]): SQLite runs one process");
  const num = (name: string, fallback: number, min: number) => wholeNumber(env, name, fallback, min);
  return {
    connections: num("BENCH_CONNECTIONS", 50, 1),
    warmupSeconds: num("BENCH_WARMUP", quick ? 1 : 3, 0),
    durationSeconds: num("BENCH_DURATION", quick ? 3 : 10, 1),
    runs: num("BENCH_RUNS", quick ? 1 : 3, 1),
    postgresUrl,
    redisUrl: redisFlag ? redisFlag.split("=")[1] || DEFAULT_REDIS : undefined,
    postRate: num("BENCH_POST_RATE", 5, 1),
    fanOutSamples: num("BENCH_FANOUT_SAMPLES", quick ? 3 : 5, 1),
    trendRate: num("BENCH_TRENDS_RATE", 500, 1),
    trendRuns: num("BENCH_TRENDS_RUNS", quick ? 1 : 3, 1),
    only: (env.BENCH_ONLY ?? "")
      .split(",")
      .map((x) => x.trim().toLowerCase())
      .filter((x) => x !== ""),
    split,
  };
}
