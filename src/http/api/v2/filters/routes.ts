import type { Context, Hono } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import { serializeFilterKeyword, serializeFilterStatus } from "../../../../serializers/filter.ts";
import * as filters from "../../../../services/filters/filters.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import {
  isBlank,
  Problems,
  parseAction,
  parseContext,
  parseExpiresIn,
  parseKeyword,
  parseKeywordChanges,
  parseTitle,
  parseWholeWord,
} from "./params.ts";

export const READ_FILTERS = requireUser("read", "read:filters");
export const WRITE_FILTERS = requireUser("write", "write:filters");

const has = (p: Record<string, unknown>, k: string) => Object.hasOwn(p, k);
const me = (c: Context<HonoEnv>) => currentAccount(c).id;

/** Keyword text and `whole_word` of a keyword request (`keyword` required when creating). */
async function keywordParams(c: Context<HonoEnv>, creating: boolean) {
  const p = await readParams(c);
  const problems = new Problems();
  const keyword = parseKeyword(p.keyword, problems, "Keyword", creating);
  const wholeWord = parseWholeWord(p.whole_word, problems);
  problems.throwIfAny();
  return { keyword, wholeWord };
}

/** 1.9 Filters (v2): filters with keywords and statuses, and the keyword paths v1 shares. */
export function filterRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v2/filters", READ_FILTERS, async (c) => {
    return c.json(await filters.accountFiltersJson(c.env.ctx, me(c)));
  });

  app.get("/api/v2/filters/:id{[0-9]+}", READ_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    return c.json(await filters.filterJson(ctx, await filters.ownedFilter(ctx, me(c), c.req.param("id"))));
  });

  app.post("/api/v2/filters", WRITE_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const p = await readParams(c);
    const problems = new Problems();
    const title = parseTitle(p.title, problems);
    const context = parseContext(p.context, problems);
    const action = isBlank(p.filter_action) ? "warn" : parseAction(p.filter_action, problems);
    const expiresAt = parseExpiresIn(p.expires_in, problems, Date.now());
    const changes = parseKeywordChanges(p.keywords_attributes, problems, new Set());
    problems.throwIfAny();
    const row = { title, context, action, expiresAt } as filters.FilterRow;
    const keywords = changes.map((k) => ({ keyword: k.keyword as string, wholeWord: k.wholeWord ?? true }));
    return c.json(await filters.filterJson(ctx, await filters.createFilter(ctx, me(c), row, keywords)));
  });

  app.put("/api/v2/filters/:id{[0-9]+}", WRITE_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const filter = await filters.ownedFilter(ctx, me(c), c.req.param("id"));
    const p = await readParams(c);
    const problems = new Problems();
    const known = new Set((await filters.filterKeywords(ctx, filter)).map((k) => k.id));
    const row: filters.FilterRow = {
      title: has(p, "title") ? (parseTitle(p.title, problems) ?? "") : filter.title,
      context: has(p, "context") ? (parseContext(p.context, problems) ?? []) : filter.context,
      action: isBlank(p.filter_action) ? filter.action : (parseAction(p.filter_action, problems) ?? "warn"),
      expiresAt: has(p, "expires_in") ? (parseExpiresIn(p.expires_in, problems, Date.now()) ?? null) : filter.expiresAt,
    };
    const changes = parseKeywordChanges(p.keywords_attributes, problems, known);
    problems.throwIfAny();
    return c.json(await filters.filterJson(ctx, await filters.updateFilter(ctx, filter, row, changes)));
  });

  app.delete("/api/v2/filters/:id{[0-9]+}", WRITE_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    await filters.deleteFilter(ctx, await filters.ownedFilter(ctx, me(c), c.req.param("id")));
    return c.json({});
  });

  // Keywords of one filter.
  app.get("/api/v2/filters/:filter_id{[0-9]+}/keywords", READ_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const filter = await filters.ownedFilter(ctx, me(c), c.req.param("filter_id"));
    return c.json((await filters.filterKeywords(ctx, filter)).map(serializeFilterKeyword));
  });

  // Mastodon routes a POST with a keyword id to `create` as well.
  for (const path of [
    "/api/v2/filters/:filter_id{[0-9]+}/keywords",
    "/api/v2/filters/:filter_id{[0-9]+}/keywords/:id",
  ]) {
    app.post(path, WRITE_FILTERS, async (c) => {
      const ctx = c.env.ctx;
      const filter = await filters.ownedFilter(ctx, me(c), c.req.param("filter_id") as string);
      const { keyword, wholeWord } = await keywordParams(c, true);
      const k = await filters.addKeyword(ctx, filter, keyword as string, wholeWord ?? true);
      return c.json(serializeFilterKeyword(k));
    });
  }

  for (const base of ["/api/v2/filters/keywords", "/api/v1/filters/keywords"]) {
    const path = `${base}/:id{[0-9]+}`;
    app.get(path, READ_FILTERS, async (c) =>
      c.json(serializeFilterKeyword(await filters.ownedKeyword(c.env.ctx, me(c), c.req.param("id") as string))),
    );
    app.put(path, WRITE_FILTERS, async (c) => {
      const ctx = c.env.ctx;
      const k = await filters.ownedKeyword(ctx, me(c), c.req.param("id") as string);
      const change = await keywordParams(c, false);
      return c.json(serializeFilterKeyword(await filters.editKeyword(ctx, me(c), k, change)));
    });
    app.delete(path, WRITE_FILTERS, async (c) => {
      const ctx = c.env.ctx;
      await filters.removeKeyword(ctx, me(c), await filters.ownedKeyword(ctx, me(c), c.req.param("id") as string));
      return c.json({});
    });
  }

  // Statuses of one filter.
  app.get("/api/v2/filters/:filter_id{[0-9]+}/statuses", READ_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const filter = await filters.ownedFilter(ctx, me(c), c.req.param("filter_id"));
    return c.json((await filters.filterStatuses(ctx, filter)).map(serializeFilterStatus));
  });

  app.post("/api/v2/filters/:filter_id{[0-9]+}/statuses", WRITE_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const filter = await filters.ownedFilter(ctx, me(c), c.req.param("filter_id"));
    const p = await readParams(c);
    const statusId = typeof p.status_id === "number" ? String(p.status_id) : p.status_id;
    if (!isId(statusId)) throw new ApiError(422, "Validation failed: Status must exist");
    return c.json(serializeFilterStatus(await filters.addStatus(ctx, filter, statusId)));
  });

  app.get("/api/v2/filters/statuses/:id{[0-9]+}", READ_FILTERS, async (c) =>
    c.json(serializeFilterStatus(await filters.ownedFilterStatus(c.env.ctx, me(c), c.req.param("id")))),
  );

  app.delete("/api/v2/filters/statuses/:id{[0-9]+}", WRITE_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const s = await filters.ownedFilterStatus(ctx, me(c), c.req.param("id"));
    await filters.removeStatus(ctx, me(c), s);
    return c.json(serializeFilterStatus(s));
  });
}
