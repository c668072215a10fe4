import type { Kysely } from "kysely";

/**
 * The web client's tokens (issue 19): the pages at `/home` and around are a client of the API,
 * with an access token of the first-party application issued for the browser session. The token
 * names its session in `web_session_id`; deleting the session (signing out, revoking it, a
 * password change) deletes the token with it, so the client's API access ends with the session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("oauth_access_tokens")
    .addColumn("web_session_id", "bigint", (c) => c.references("web_sessions.id").onDelete("cascade"))
    .execute();
  await db.schema
    .createIndex("oauth_access_tokens_web_session")
    .on("oauth_access_tokens")
    .column("web_session_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("oauth_access_tokens_web_session").execute();
  await db.schema.alterTable("oauth_access_tokens").dropColumn("web_session_id").execute();
}
