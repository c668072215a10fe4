import { throttle } from "../../../middleware/rate-limit.ts";

/** Mastodon's `statuses` action family: 300 posts, edits and boosts per 3 hours per user. */
export const throttleStatuses = () => throttle("statuses", 300, 3 * 60 * 60 * 1000, "user");

/** Mastodon's `throttle_api_delete`: 30 deletes and unboosts per 30 minutes per user. */
export const throttleDeletes = () => throttle("api_delete", 30, 30 * 60 * 1000, "user");
