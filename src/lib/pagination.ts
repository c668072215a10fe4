/**
 * Mastodon's page window on a sorted ID column: the cursors `max_id`, `since_id`, `min_id` and a
 * limit. Routes read it from a request (`src/http/pagination.ts`); services and repositories take
 * it from here, so that they need nothing from the HTTP layer.
 */
export interface IdWindow {
  maxId?: string;
  sinceId?: string;
  minId?: string;
  limit: number;
}
