/**
 * Rendered JSON kept between requests, checked against what it was rendered from: an entry
 * holds its inputs (rows as the request read them), and is used only when this request's
 * inputs are equal to them, field by field. Nothing is keyed on time or on a version number
 * that a writer must remember to bump, so an entry can never be stale, whichever process
 * wrote the change: at worst it is rendered again. Bounded: least recently used entries go.
 */
export class JsonCache<I, O = string> {
  readonly #max: number;
  readonly #entries = new Map<string, { inputs: I; text: O }>();
  readonly #same: (a: I, b: I) => boolean;
  readonly #keep: (inputs: I) => I;

  /**
   * `keep` makes what an entry holds of its inputs (default: the inputs themselves): a copy that
   * holds nothing else alive, when the inputs are objects other structures hang on to.
   */
  constructor(max: number, same: (a: I, b: I) => boolean, keep: (inputs: I) => I = (i) => i) {
    this.#max = max;
    this.#same = same;
    this.#keep = keep;
  }

  /** What `render` makes of `inputs` (JSON text), from the cache when it was made from equal inputs. */
  text(key: string, inputs: I, render: (inputs: I) => O): O {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      if (this.#same(hit.inputs, inputs)) {
        this.#entries.set(key, hit);
        return hit.text;
      }
    }
    const text = render(inputs);
    this.#entries.set(key, { inputs: this.#keep(inputs), text });
    if (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return text;
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Whether two values read from the database are equal: primitives by value, arrays and plain
 * objects (JSON columns, rows) member by member.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let n = 0;
  for (const k in ra) {
    if (!sameData(ra[k], rb[k])) return false;
    n++;
  }
  for (const _ in rb) n--;
  return n === 0;
}
