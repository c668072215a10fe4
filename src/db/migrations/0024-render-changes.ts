import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * `render_changes`: a log, written by the database itself (triggers), of every change that may
 * make JSON kept in a process's memory stale, so that no writer has to remember to invalidate
 * anything and every process learns of every other's writes (src/services/statuses/changes.ts
 * reads it). Each row names a kind and a key:
 *
 * - `s` status id: the status row changed (counts, edits, tombstone) or its media, mentions or tags;
 * - `a` account id: the account row or its user changed (profile, counts, role, approval);
 * - `f` account id: that account's filters, their keywords or statuses changed;
 * - `v` account id: that account's flags on statuses changed (favourites, bookmarks, pins,
 *   conversation mutes, its boosts);
 * - `r` account id: that account's relations changed (its follows, blocks, mutes, domain blocks,
 *   or a block of it);
 * - `*` (empty key): anything any kept text may name changed (custom emojis, roles, applications,
 *   an account's suspension or deletion).
 *
 * Old rows are trimmed by the scheduler.
 */

const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

type Op = "insert" | "update" | "delete";
const OPS: readonly Op[] = ["insert", "update", "delete"];

/** Row triggers: table, the operations, then (kind, column) pairs logged for the new and old rows. */
const ROW_TRIGGERS: readonly {
  name: string;
  table: string;
  ops: readonly Op[];
  when?: string;
  log: [string, string][];
}[] = [
  { name: "statuses_s", table: "statuses", ops: ["update"], log: [["s", "id"]] },
  {
    name: "statuses_v",
    table: "statuses",
    ops: ["insert", "update"],
    when: "NEW.reblog_of_id IS NOT NULL",
    log: [["v", "account_id"]],
  },
  { name: "media_s", table: "media_attachments", ops: OPS, log: [["s", "status_id"]] },
  { name: "mentions_s", table: "mentions", ops: OPS, log: [["s", "status_id"]] },
  { name: "statuses_tags_s", table: "statuses_tags", ops: OPS, log: [["s", "status_id"]] },
  { name: "accounts_a", table: "accounts", ops: ["update"], log: [["a", "id"]] },
  { name: "users_a", table: "users", ops: ["update"], log: [["a", "account_id"]] },
  { name: "filters_f", table: "filters", ops: OPS, log: [["f", "account_id"]] },
  { name: "favourites_v", table: "favourites", ops: OPS, log: [["v", "account_id"]] },
  { name: "bookmarks_v", table: "bookmarks", ops: OPS, log: [["v", "account_id"]] },
  { name: "status_pins_v", table: "status_pins", ops: OPS, log: [["v", "account_id"]] },
  { name: "conversation_mutes_v", table: "conversation_mutes", ops: OPS, log: [["v", "account_id"]] },
  {
    name: "blocks_r",
    table: "blocks",
    ops: OPS,
    log: [
      ["r", "account_id"],
      ["r", "target_account_id"],
    ],
  },
  { name: "mutes_r", table: "mutes", ops: OPS, log: [["r", "account_id"]] },
  { name: "follows_r", table: "follows", ops: OPS, log: [["r", "account_id"]] },
  { name: "account_domain_blocks_r", table: "account_domain_blocks", ops: OPS, log: [["r", "account_id"]] },
];

/** Tables hanging off a filter: logged as the filter's owner. */
const FILTER_PARTS = ["filter_keywords", "filter_statuses"] as const;
/** Tables any change of which is logged as `*`. */
const EPOCH_TABLES = ["custom_emojis", "user_roles", "oauth_applications"] as const;

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(
    `CREATE TABLE render_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, key TEXT NOT NULL)`,
  );
  for (const t of ROW_TRIGGERS) {
    for (const op of t.ops) {
      const rows = op === "insert" ? ["new"] : op === "delete" ? ["old"] : ["new", "old"];
      const inserts = t.log
        .flatMap(([kind, col]) =>
          rows.map(
            (r) =>
              `INSERT INTO render_changes (kind, key) SELECT '${kind}', ${r}.${col} WHERE ${r}.${col} IS NOT NULL;`,
          ),
        )
        .join("\n");
      const when = t.when ? `WHEN ${t.when.replaceAll("NEW.", "new.")}` : "";
      await run(`CREATE TRIGGER rc_${t.name}_${op} AFTER ${op.toUpperCase()} ON ${t.table} ${when} BEGIN
        ${inserts}
      END`);
    }
  }
  await run(`CREATE TRIGGER rc_accounts_suspension AFTER UPDATE OF suspended_at, suspension_origin ON accounts
    WHEN new.suspended_at IS NOT old.suspended_at OR new.suspension_origin IS NOT old.suspension_origin BEGIN
    INSERT INTO render_changes (kind, key) VALUES ('*', '');
  END`);
  for (const table of FILTER_PARTS) {
    for (const op of OPS) {
      const ids =
        op === "insert" ? "new.filter_id" : op === "delete" ? "old.filter_id" : "new.filter_id, old.filter_id";
      await run(`CREATE TRIGGER rc_${table}_${op} AFTER ${op.toUpperCase()} ON ${table} BEGIN
        INSERT INTO render_changes (kind, key) SELECT 'f', account_id FROM filters WHERE id IN (${ids});
      END`);
    }
  }
  for (const table of EPOCH_TABLES) {
    for (const op of OPS) {
      await run(`CREATE TRIGGER rc_${table}_${op} AFTER ${op.toUpperCase()} ON ${table} BEGIN
        INSERT INTO render_changes (kind, key) VALUES ('*', '');
      END`);
    }
  }
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`CREATE TABLE render_changes (seq bigserial PRIMARY KEY, kind text NOT NULL, key text NOT NULL)`);
  // Arguments: (kind, column) pairs; the column's value in the new row and, if different, the old one.
  await run(`CREATE FUNCTION gannet_render_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      i int := 0;
      n jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END;
      o jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END;
    BEGIN
      WHILE i < TG_NARGS LOOP
        IF n ->> TG_ARGV[i + 1] IS NOT NULL THEN
          INSERT INTO render_changes (kind, key) VALUES (TG_ARGV[i], n ->> TG_ARGV[i + 1]);
        END IF;
        IF o ->> TG_ARGV[i + 1] IS NOT NULL AND (n IS NULL OR n ->> TG_ARGV[i + 1] <> o ->> TG_ARGV[i + 1]) THEN
          INSERT INTO render_changes (kind, key) VALUES (TG_ARGV[i], o ->> TG_ARGV[i + 1]);
        END IF;
        i := i + 2;
      END LOOP;
      RETURN NULL;
    END $$`);
  for (const t of ROW_TRIGGERS) {
    const args = t.log.flatMap(([k, c]) => [`'${k}'`, `'${c}'`]).join(", ");
    const when = t.when ? `WHEN (${t.when})` : "";
    await run(`CREATE TRIGGER rc_${t.name} AFTER ${t.ops.map((o) => o.toUpperCase()).join(" OR ")} ON ${t.table}
      FOR EACH ROW ${when} EXECUTE FUNCTION gannet_render_change(${args})`);
  }
  await run(`CREATE FUNCTION gannet_render_suspension() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO render_changes (kind, key) VALUES ('*', ''); RETURN NULL; END $$`);
  await run(`CREATE TRIGGER rc_accounts_suspension AFTER UPDATE OF suspended_at, suspension_origin ON accounts
    FOR EACH ROW WHEN (NEW.suspended_at IS DISTINCT FROM OLD.suspended_at
      OR NEW.suspension_origin IS DISTINCT FROM OLD.suspension_origin)
    EXECUTE FUNCTION gannet_render_suspension()`);
  await run(`CREATE FUNCTION gannet_render_filter_part() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO render_changes (kind, key)
        SELECT 'f', account_id::text FROM filters WHERE id IN (
          CASE WHEN TG_OP = 'DELETE' THEN OLD.filter_id ELSE NEW.filter_id END,
          CASE WHEN TG_OP = 'INSERT' THEN NEW.filter_id ELSE OLD.filter_id END);
      RETURN NULL;
    END $$`);
  for (const table of FILTER_PARTS) {
    await run(`CREATE TRIGGER rc_${table} AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION gannet_render_filter_part()`);
  }
  await run(`CREATE FUNCTION gannet_render_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO render_changes (kind, key) VALUES ('*', ''); RETURN NULL; END $$`);
  for (const table of EPOCH_TABLES) {
    await run(`CREATE TRIGGER rc_${table} AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION gannet_render_epoch()`);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    const triggers: [string, string][] = [
      ...ROW_TRIGGERS.map((t): [string, string] => [`rc_${t.name}`, t.table]),
      ["rc_accounts_suspension", "accounts"],
      ...FILTER_PARTS.map((t): [string, string] => [`rc_${t}`, t]),
      ...EPOCH_TABLES.map((t): [string, string] => [`rc_${t}`, t]),
    ];
    for (const [name, table] of triggers)
      await sql`DROP TRIGGER IF EXISTS ${sql.id(name)} ON ${sql.id(table)}`.execute(db);
    for (const f of [
      "gannet_render_change",
      "gannet_render_suspension",
      "gannet_render_filter_part",
      "gannet_render_epoch",
    ])
      await sql`DROP FUNCTION IF EXISTS ${sql.id(f)}()`.execute(db);
  } else {
    const names = [
      ...ROW_TRIGGERS.flatMap((t) => t.ops.map((op) => `rc_${t.name}_${op}`)),
      "rc_accounts_suspension",
      ...[...FILTER_PARTS, ...EPOCH_TABLES].flatMap((t) => OPS.map((op) => `rc_${t}_${op}`)),
    ];
    for (const t of names) await sql`DROP TRIGGER IF EXISTS ${sql.id(t)}`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS render_changes`.execute(db);
}
