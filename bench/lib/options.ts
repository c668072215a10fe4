export interface Options {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  runs: number;
}

/** `--quick` picks short defaults; BENCH_* variables override either set. */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const unknown = argv.filter((a) => a !== "--quick");
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown[0]} (only --quick is understood)`);
  const quick = argv.includes("--quick");
  const num = (name: string, fallback: number, min: number) => {
    const v = env[name];
    if (v === undefined || v === "") return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${v}"`);
    return n;
  };
  return {
    connections: num("BENCH_CONNECTIONS", 50, 1),
    warmupSeconds: num("BENCH_WARMUP", quick ? 1 : 3, 0),
    durationSeconds: num("BENCH_DURATION", quick ? 3 : 10, 1),
    runs: num("BENCH_RUNS", quick ? 1 : 3, 1),
  };
}
