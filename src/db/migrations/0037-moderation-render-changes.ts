import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Silencing or sensitizing an account (or lifting either) changes what is rendered of others'
 * rows too: a sensitized author's statuses are shown `sensitive` (policies/moderation.ts), and kept
 * status JSON (services/statuses/kept.ts) is dropped only by a change naming the status. Like a
 * suspension (migration 0024), such a change logs `*` in `render_changes`: every process drops
 * what it keeps. Moderation changes are rare; whoever sets the flags (the admin API, the
 * `gannet` command, a domain block, a test writing the row) needs to call nothing.
 */

const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    // gannet_render_suspension (0024) logs `*`.
    await sql`CREATE TRIGGER rc_accounts_moderation AFTER UPDATE OF silenced_at, sensitized_at ON accounts
      FOR EACH ROW WHEN (NEW.silenced_at IS DISTINCT FROM OLD.silenced_at
        OR NEW.sensitized_at IS DISTINCT FROM OLD.sensitized_at)
      EXECUTE FUNCTION gannet_render_suspension()`.execute(db);
  } else {
    await sql`CREATE TRIGGER rc_accounts_moderation AFTER UPDATE OF silenced_at, sensitized_at ON accounts
      WHEN new.silenced_at IS NOT old.silenced_at OR new.sensitized_at IS NOT old.sensitized_at BEGIN
      INSERT INTO render_changes (kind, key) VALUES ('*', '');
    END`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`DROP TRIGGER IF EXISTS rc_accounts_moderation ON accounts`.execute(db);
  else await sql`DROP TRIGGER IF EXISTS rc_accounts_moderation`.execute(db);
}
