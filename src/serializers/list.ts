import type { List } from "../db/repositories/lists.ts";

/** Mastodon's List entity. */
export function serializeList(list: List): Record<string, unknown> {
  return { id: list.id, title: list.title, replies_policy: list.repliesPolicy, exclusive: list.exclusive };
}
