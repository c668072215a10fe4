/** What the List entity is made of (a list row has these and more). */
export interface ListView {
  id: string;
  title: string;
  repliesPolicy: string;
  exclusive: boolean;
}

/** Mastodon's List entity. */
export function serializeList(list: ListView): Record<string, unknown> {
  return { id: list.id, title: list.title, replies_policy: list.repliesPolicy, exclusive: list.exclusive };
}
