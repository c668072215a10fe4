import type { Kysely } from "kysely";

/**
 * Password reset by e-mail (the web's `/auth/password/new`): the link's token, stored hashed
 * (SHA-256, as the confirmation token), and when it was sent; Devise's columns. A link works once
 * and for six hours.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("reset_password_token", "text").execute();
  await db.schema.alterTable("users").addColumn("reset_password_sent_at", "text").execute();
  await db.schema
    .createIndex("users_reset_password_token")
    .unique()
    .on("users")
    .column("reset_password_token")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("users_reset_password_token").execute();
  await db.schema.alterTable("users").dropColumn("reset_password_sent_at").execute();
  await db.schema.alterTable("users").dropColumn("reset_password_token").execute();
}
