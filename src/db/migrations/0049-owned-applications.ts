import type { Kysely } from "kysely";

/**
 * Applications a user makes on the "Development" settings page (Mastodon's Doorkeeper apps owned
 * by a user, `owner_account_id` since 0001). Mastodon shows their client secret and the owner's
 * access token on the app's page at any time; Gannet stores secrets and tokens only as hashes,
 * so for these apps it also keeps both encrypted with the server's secret key (as push
 * subscriptions keep their token, 0028): `client_secret_box` and `owner_token_box`. Apps
 * registered through the API keep neither. The owner's apps are listed through the new index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("oauth_applications").addColumn("client_secret_box", "text").execute();
  await db.schema.alterTable("oauth_applications").addColumn("owner_token_box", "text").execute();
  await db.schema.createIndex("oauth_applications_owner").on("oauth_applications").column("owner_account_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("oauth_applications_owner").execute();
  await db.schema.alterTable("oauth_applications").dropColumn("owner_token_box").execute();
  await db.schema.alterTable("oauth_applications").dropColumn("client_secret_box").execute();
}
