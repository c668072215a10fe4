/**
 * Time-sortable 64-bit IDs (Snowflake-style, as Mastodon uses): the upper 48 bits are milliseconds
 * since the Unix epoch, the lower 16 bits a per-process sequence. Serialized as decimal strings.
 * Every ID made after 1974 is above 2^53, which the SQLite layer relies on to return IDs as strings.
 */
export class IdGenerator {
  #lastMs = 0;
  #seq = 0;

  /** A new ID for an object published now (or at `date`, for remote objects). */
  next(date?: Date): string {
    let ms = date ? date.getTime() : Date.now();
    if (date === undefined) {
      if (ms <= this.#lastMs) {
        ms = this.#lastMs;
        this.#seq = (this.#seq + 1) & 0xffff;
        if (this.#seq === this.#startSeq) ms = ++this.#lastMs;
      } else {
        this.#lastMs = ms;
        this.#seq = this.#startSeq = Math.floor(Math.random() * 0x8000);
      }
      return ((BigInt(ms) << 16n) | BigInt(this.#seq)).toString();
    }
    return ((BigInt(ms) << 16n) | BigInt(Math.floor(Math.random() * 0x10000))).toString();
  }

  #startSeq = 0;
}

/** The smallest ID of the given time, for cursors such as "everything since this date". */
export function idAtTime(date: Date): string {
  return (BigInt(date.getTime()) << 16n).toString();
}

const ID_RE = /^[0-9]{1,19}$/;
const MAX_ID = 9223372036854775807n;

/** Whether `s` can be an ID: digits that fit a signed 64-bit integer. */
export function isId(s: unknown): s is string {
  return typeof s === "string" && ID_RE.test(s) && BigInt(s) <= MAX_ID;
}
