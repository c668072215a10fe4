import type { Kysely } from "kysely";

/**
 * Trend review notices: when staff were told that a post waits for review. Tags and link
 * publishers carry their own `requested_review_at` (0034, 0040); Mastodon keeps the posts' one on
 * their author's account, which Gannet does not review, so a post carries it itself: each post is
 * announced once, and an author's later posts are announced too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("statuses").addColumn("requested_review_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("statuses").dropColumn("requested_review_at").execute();
}
