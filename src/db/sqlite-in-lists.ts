/**
 * `IN (?, ?, ...)` lists padded to a few lengths, so that SQLite keeps a handful of prepared
 * statements per query instead of one per list length. Each prepared statement holds malloc'ed
 * memory that grows with its list (measured: some 13 KB on average for the statements a soak
 * keeps, 30-70 KB with lists of 1 to 400), and the status loaders, flags and relations read lists
 * of every length up to a page's: after 7 minutes of the soak (docs/performance.md) the statement
 * cache held 514 statements, 38 to 49 variants of each such query. A list is padded by repeating
 * its last value, which changes neither `IN` nor `NOT IN`.
 */

/** A list whose last parameter (index `at`) is repeated `extra` times. */
export type Pad = readonly [at: number, extra: number];

export interface PaddedSql {
  sql: string;
  /** In the order of the parameters; empty when nothing is padded. */
  pads: readonly Pad[];
}

const IN_LIST = /\bin \((\?(?:, ?\?)*)\)/gi;
/** Lists longer than this are left as they are (a statement has at most 32,766 parameters). */
const MAX_PADDED = 1024;

/**
 * The length a list of `n` is padded to: as it is up to 4, then the next multiple of 8 up to 128
 * (at most 7 values more: each costs a little, about 0.2 µs in a measured `IN` of 40), then the
 * next power of two.
 */
export function paddedLength(n: number): number {
  if (n <= 4 || n > MAX_PADDED) return n;
  if (n <= 128) return Math.ceil(n / 8) * 8;
  return 2 ** Math.ceil(Math.log2(n));
}

/**
 * `sql` with each `in (?, ...)` list padded (`paddedLength`), and where the parameters must be
 * repeated. SQL with a `?` that is not a parameter (in a quoted string or name) or with numbered
 * parameters is left as it is.
 */
export function padInLists(sql: string): PaddedSql {
  const same = { sql, pads: [] };
  if (!/\bin \(\?/i.test(sql) || /\?\d/.test(sql)) return same;
  const unquoted = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, "");
  if (count(unquoted) !== count(sql)) return same;
  const pads: Pad[] = [];
  let before = 0;
  let last = 0;
  const out = sql.replace(IN_LIST, (match: string, list: string, offset: number) => {
    before += count(sql.slice(last, offset));
    last = offset + match.length;
    const n = count(list);
    const first = before;
    before += n;
    const to = paddedLength(n);
    if (to === n) return match;
    pads.push([first + n - 1, to - n]);
    return `in (${Array.from({ length: to }, () => "?").join(", ")})`;
  });
  return pads.length === 0 ? same : { sql: out, pads };
}

/** `parameters` with the padded lists' last values repeated (`pads` from `padInLists`). */
export function padParameters<T>(parameters: readonly T[], pads: readonly Pad[]): T[] {
  if (pads.length === 0) return parameters as T[];
  const out: T[] = [];
  let from = 0;
  for (const [at, extra] of pads) {
    for (let i = from; i <= at; i++) out.push(parameters[i] as T);
    for (let i = 0; i < extra; i++) out.push(parameters[at] as T);
    from = at + 1;
  }
  for (let i = from; i < parameters.length; i++) out.push(parameters[i] as T);
  return out;
}

function count(text: string): number {
  let n = 0;
  for (let i = text.indexOf("?"); i >= 0; i = text.indexOf("?", i + 1)) n++;
  return n;
}
