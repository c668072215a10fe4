import { ApiError } from "../../lib/errors.ts";
import { POLL_LIMITS } from "../../lib/limits.ts";

/** A poll as given to `POST`/`PUT /api/v1/statuses` (and kept in a ScheduledStatus's params). */
export interface PollInput {
  options: string[];
  /** Seconds; null when not given. */
  expiresIn: number | null;
  multiple: boolean;
  hideTotals: boolean;
}

// Made on first use (it loads ICU data).
let segmenter: Intl.Segmenter | undefined;
const graphemes = (s: string): number => {
  let n = 0;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  for (const _ of segmenter.segment(s)) n++;
  return n;
};

/** Options as Mastodon stores them: trimmed, blank ones dropped. */
export function cleanOptions(options: readonly string[]): string[] {
  return options.map((o) => o.trim()).filter((o) => o !== "");
}

/**
 * Mastodon's poll validation (`PollValidator` plus the model's presence checks), every failure
 * named in one 422 `Validation failed: Poll options ..., Poll expires at ...` as Rails words
 * the errors of a status's nested poll.
 */
export function validatePoll(poll: PollInput): { options: string[]; expiresIn: number } {
  const options = cleanOptions(poll.options);
  const errors: string[] = [];
  if (options.length === 0) errors.push("Poll options can't be blank");
  if (poll.expiresIn === null) errors.push("Poll expires at can't be blank");
  if (options.length < POLL_LIMITS.minOptions) errors.push("Poll options must have more than one item");
  if (options.length > POLL_LIMITS.maxOptions) {
    errors.push(`Poll options can't contain more than ${POLL_LIMITS.maxOptions} items`);
  }
  if (options.some((o) => graphemes(o) > POLL_LIMITS.maxCharactersPerOption)) {
    errors.push(`Poll options cannot be longer than ${POLL_LIMITS.maxCharactersPerOption} characters each`);
  }
  if (new Set(options).size !== options.length) errors.push("Poll options contain duplicate items");
  if (poll.expiresIn === null || poll.expiresIn > POLL_LIMITS.maxExpiration) {
    errors.push("Poll expires at is too far into the future");
  }
  if (poll.expiresIn !== null && poll.expiresIn < POLL_LIMITS.minExpiration) errors.push("Poll expires at is too soon");
  if (errors.length > 0) throw new ApiError(422, `Validation failed: ${errors.join(", ")}`);
  return { options, expiresIn: poll.expiresIn as number };
}

/** The poll as a ScheduledStatus shows it in `params.poll`. */
export function pollParamsJson(poll: PollInput): Record<string, unknown> {
  return { options: poll.options, expires_in: poll.expiresIn, multiple: poll.multiple, hide_totals: poll.hideTotals };
}

/** Back from `pollParamsJson` (stored params are trusted: they were validated when scheduled). */
export function pollInputFromJson(v: unknown): PollInput | undefined {
  if (v === null || typeof v !== "object") return undefined;
  const o = v as Record<string, unknown>;
  return {
    options: Array.isArray(o.options) ? o.options.map(String) : [],
    expiresIn: typeof o.expires_in === "number" ? o.expires_in : null,
    multiple: o.multiple === true,
    hideTotals: o.hide_totals === true,
  };
}
