import type { Hono } from "hono";
import { unprocessable } from "../../../../lib/errors.ts";
import { serializeList } from "../../../../serializers/list.ts";
import { accountsJson } from "../../../../services/accounts/views.ts";
import { listTimelineText } from "../../../../services/lists/feeds.ts";
import {
  addAccounts,
  createList,
  deleteList,
  getOwnedList,
  LIST_TITLE_MAX,
  type ListParams,
  listMembersPage,
  listsContaining,
  ownLists,
  REPLIES_POLICIES,
  type RepliesPolicy,
  removeAccounts,
  updateList,
} from "../../../../services/lists/lists.ts";
import { jsonText } from "../../../json-text.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish } from "../../../validate.ts";

const given = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * `title`, `replies_policy` and `exclusive` of a create or update request, checked as Mastodon's
 * model validations: a bad value is a 422 naming it, and nothing is stored.
 */
function listParams(p: Record<string, unknown>): ListParams {
  const out: ListParams = {};
  // An explicit null is a blank title, as Rails would store it.
  if (p.title === null) out.title = "";
  if (given(p.title)) {
    const title = typeof p.title === "number" ? String(p.title) : p.title;
    if (typeof title !== "string") throw unprocessable("Validation failed: Title is invalid");
    if (title.length > LIST_TITLE_MAX) {
      throw unprocessable(`Validation failed: Title is too long (maximum is ${LIST_TITLE_MAX} characters)`);
    }
    out.title = title;
  }
  // Rails reads "" and null as no policy, which fails the enum's validation.
  if (p.replies_policy !== undefined) {
    if (!REPLIES_POLICIES.includes(p.replies_policy as RepliesPolicy)) {
      throw unprocessable("Validation failed: Replies policy is not included in the list");
    }
    out.repliesPolicy = p.replies_policy as RepliesPolicy;
  }
  if (given(p.exclusive) && p.exclusive !== "") {
    const r = boolish.safeParse(p.exclusive);
    if (!r.success) throw unprocessable("Validation failed: Exclusive is invalid");
    out.exclusive = r.data;
  }
  return out;
}

/** `account_ids[]` of a members request (strings; anything else is dropped). */
function accountIds(p: Record<string, unknown>): string[] {
  return (asArray(p.account_ids) ?? [])
    .map((v) => (typeof v === "number" ? String(v) : v))
    .filter((v): v is string => typeof v === "string");
}

/** Lists: CRUD, members, the lists holding an account, and the list timeline. Only the owner's lists. */
export function listRoutes(app: Hono<HonoEnv>): void {
  const read = requireUser("read:lists");
  const write = requireUser("write:lists");

  app.get("/api/v1/lists", read, async (c) => {
    const lists = await ownLists(c.env.ctx, currentAccount(c).id);
    return c.json(lists.map(serializeList));
  });

  app.post("/api/v1/lists", write, async (c) => {
    const p = listParams(await readParams(c));
    return c.json(serializeList(await createList(c.env.ctx, currentAccount(c), p)));
  });

  app.get("/api/v1/lists/:id{[0-9]+}", read, async (c) =>
    c.json(serializeList(await getOwnedList(c.env.ctx, currentAccount(c).id, c.req.param("id")))),
  );

  app.put("/api/v1/lists/:id{[0-9]+}", write, async (c) => {
    const p = listParams(await readParams(c));
    return c.json(serializeList(await updateList(c.env.ctx, currentAccount(c), c.req.param("id"), p)));
  });

  app.delete("/api/v1/lists/:id{[0-9]+}", write, async (c) => {
    await deleteList(c.env.ctx, currentAccount(c), c.req.param("id"));
    return c.json({});
  });

  /** Members, newest first; `limit=0` gives all of them without a Link header, as Mastodon. */
  app.get("/api/v1/lists/:id{[0-9]+}/accounts", read, async (c) => {
    const ctx = c.env.ctx;
    const list = await getOwnedList(ctx, currentAccount(c).id, c.req.param("id"));
    const unlimited = c.req.query("limit") === "0";
    const page = pageParams(c, 40, 80);
    const { rows, accounts } = await listMembersPage(ctx, list, unlimited ? null : page);
    if (!unlimited) setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await accountsJson(ctx, accounts));
  });

  app.post("/api/v1/lists/:id{[0-9]+}/accounts", write, async (c) => {
    const ids = accountIds(await readParams(c));
    await addAccounts(c.env.ctx, currentAccount(c), c.req.param("id"), ids);
    return c.json({});
  });

  app.delete("/api/v1/lists/:id{[0-9]+}/accounts", write, async (c) => {
    const ids = accountIds(await readParams(c));
    await removeAccounts(c.env.ctx, currentAccount(c), c.req.param("id"), ids);
    return c.json({});
  });

  app.get("/api/v1/accounts/:id{[0-9]+}/lists", read, async (c) => {
    const lists = await listsContaining(c.env.ctx, currentAccount(c), c.req.param("id"));
    return c.json(lists.map(serializeList));
  });

  app.get("/api/v1/timelines/list/:list_id{[0-9]+}", read, async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 20, 40);
    const viewerId = currentAccount(c).id;
    const { rows, body } = await listTimelineText(ctx, viewerId, c.req.param("list_id"), page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return jsonText(c, body);
  });
}
