/**
 * Bounds on the shape of an incoming activity, checked on the parsed JSON before Fedify's JSON-LD
 * processing, whose cost grows with every value (a 1 MB Create with 12,500 Mention tags took up
 * to a second of main-thread CPU) and which recurses with the nesting (1,000 levels overflowed
 * the stack). Real activities stay far inside them: Mastodon's are nested about 6 deep, carry at
 * most a few dozen tags and 4 attachments (Misskey 16), and a few hundred values in all.
 */
export const INBOX_LIMITS = {
  /** Objects and arrays inside one another (the activity itself is depth 1). */
  depth: 32,
  /** Entries of `tag` arrays, summed over every object of the activity. */
  tags: 500,
  /** Entries of `attachment` arrays, summed likewise (media of posts, profile fields of actors). */
  attachments: 64,
  /** Values of any kind (objects, arrays, strings, numbers...). */
  values: 20_000,
} as const;

type Limits = { readonly [K in keyof typeof INBOX_LIMITS]: number };

const count = (value: unknown): number => (Array.isArray(value) ? value.length : value == null ? 0 : 1);

/**
 * What is wrong with the activity's shape, as a message for a 400, or null when it is within
 * `limits`. Walks the tree without recursion, and stops at the first bound passed.
 */
export function shapeProblem(json: unknown, limits: Limits = INBOX_LIMITS): string | null {
  let tags = 0;
  let attachments = 0;
  // Counted as they are pushed, so that the stack itself stays within the bound.
  let values = 1;
  const stack: Array<[unknown, number]> = [[json, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (value === null || typeof value !== "object") continue;
    if (depth > limits.depth) return "The activity is nested too deeply";
    if (Array.isArray(value)) {
      values += value.length;
      if (values > limits.values) return "The activity has too many values";
      for (const item of value) stack.push([item, depth + 1]);
      continue;
    }
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, "tag")) {
      tags += count(record.tag);
      if (tags > limits.tags) return "The activity has too many tags";
    }
    if (Object.hasOwn(record, "attachment")) {
      attachments += count(record.attachment);
      if (attachments > limits.attachments) return "The activity has too many attachments";
    }
    for (const key in record) {
      if (++values > limits.values) return "The activity has too many values";
      stack.push([record[key], depth + 1]);
    }
  }
  return null;
}
