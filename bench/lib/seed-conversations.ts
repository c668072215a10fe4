// The reader's conversations (GET /api/v1/conversations), for the benchmark: every direct post
// the reader wrote or is mentioned in is put into its conversations through the service the
// fan-out job calls (services/conversations/update.ts), after the blocks and mutes of the
// curation, so those it would not get (a blocked or muted author) are left out as on a live server.
import type { Kysely } from "kysely";
import type { AppContext } from "../../src/context.ts";
import type { DB } from "../../src/db/schema.ts";
import { addToConversations } from "../../src/services/conversations/update.ts";

export async function seedConversations(ctx: AppContext, readerId: string): Promise<Record<string, number>> {
  const db = ctx.db as Kysely<DB>;
  const rows = await db
    .selectFrom("statuses")
    .select("id")
    .where("visibility", "=", "direct")
    .where("deleted_at", "is", null)
    .where("reblog_of_id", "is", null)
    .where((eb) =>
      eb.or([
        eb("account_id", "=", readerId),
        eb("id", "in", eb.selectFrom("mentions").select("status_id").where("account_id", "=", readerId)),
      ]),
    )
    .orderBy("id")
    .execute();
  for (const r of rows) await addToConversations(ctx, String(r.id), readerId);
  const held = await db
    .selectFrom("account_conversations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("account_id", "=", readerId)
    .executeTakeFirstOrThrow();
  return { readerDirectPosts: rows.length, readerConversations: Number(held.n) };
}
