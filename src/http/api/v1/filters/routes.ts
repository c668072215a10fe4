import type { Context, Hono } from "hono";
import type { Filter, FilterKeyword, FilterRow } from "../../../../db/repositories/filters.ts";
import { ApiError, notFound } from "../../../../lib/errors.ts";
import { serializeV1Filter } from "../../../../serializers/filter.ts";
import * as filters from "../../../../services/filters/filters.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { Problems, parseContext, parseExpiresIn, parseTitle, parseWholeWord, toBool } from "../../v2/filters/params.ts";
import { READ_FILTERS, WRITE_FILTERS } from "../../v2/filters/routes.ts";

const has = (p: Record<string, unknown>, k: string) => Object.hasOwn(p, k);
const me = (c: Context<HonoEnv>) => currentAccount(c).id;

const DEPRECATED_MULTIPLE_KEYWORDS =
  "Validation failed: These parameters cannot be changed from this application because they apply to more than one filter keyword. Use a more recent application or the web interface.";

function parseIrreversible(v: unknown, problems: Problems): boolean {
  const b = toBool(v ?? false);
  if (b === undefined) problems.add("Irreversible is invalid");
  return b ?? false;
}

/** A keyword of the caller's with its filter. */
async function ownedV1(c: Context<HonoEnv>): Promise<{ keyword: FilterKeyword; filter: Filter }> {
  const ctx = c.env.ctx;
  const keyword = await filters.ownedKeyword(ctx, me(c), c.req.param("id") as string);
  const filter = await ctx.repos.filters.getOwned(me(c), keyword.filterId);
  if (!filter) throw notFound();
  return { keyword, filter };
}

/**
 * 1.9 Filters, the deprecated v1 API: each V1::Filter is one keyword of a v2 filter (its `id`
 * the keyword's), `phrase` both the keyword and the filter's title, `irreversible` the `hide` action.
 */
export function v1FilterRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/filters", READ_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const keywords = await ctx.repos.filters.keywordsOfAccount(me(c));
    const byId = new Map(
      (await ctx.repos.filters.getByIds([...new Set(keywords.map((k) => k.filterId))])).map((f) => [f.id, f]),
    );
    return c.json(
      keywords.flatMap((k) => (byId.has(k.filterId) ? [serializeV1Filter(k, byId.get(k.filterId) as Filter)] : [])),
    );
  });

  app.get("/api/v1/filters/:id{[0-9]+}", READ_FILTERS, async (c) => {
    const { keyword, filter } = await ownedV1(c);
    return c.json(serializeV1Filter(keyword, filter));
  });

  app.post("/api/v1/filters", WRITE_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const p = await readParams(c);
    const problems = new Problems();
    const phrase = parseTitle(p.phrase, problems, "Phrase");
    const context = parseContext(p.context, problems);
    const irreversible = parseIrreversible(p.irreversible, problems);
    const wholeWord = parseWholeWord(p.whole_word, problems);
    const expiresAt = parseExpiresIn(p.expires_in, problems, Date.now());
    problems.throwIfAny();
    const row = { title: phrase, context, action: irreversible ? "hide" : "warn", expiresAt } as FilterRow;
    const filter = await filters.createFilter(ctx, me(c), row, [
      { keyword: phrase as string, wholeWord: wholeWord ?? true },
    ]);
    const [keyword] = await ctx.repos.filters.keywordsOf([filter.id]);
    return c.json(serializeV1Filter(keyword, filter));
  });

  app.put("/api/v1/filters/:id{[0-9]+}", WRITE_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const { keyword, filter } = await ownedV1(c);
    const p = await readParams(c);
    const problems = new Problems();
    const phrase = has(p, "phrase") ? parseTitle(p.phrase, problems, "Phrase") : undefined;
    const wholeWord = parseWholeWord(p.whole_word, problems);
    const row: FilterRow = {
      title: phrase ?? filter.title,
      context: has(p, "context") ? (parseContext(p.context, problems) ?? []) : filter.context,
      action: !has(p, "irreversible") ? filter.action : parseIrreversible(p.irreversible, problems) ? "hide" : "warn",
      expiresAt: has(p, "expires_in") ? (parseExpiresIn(p.expires_in, problems, Date.now()) ?? null) : filter.expiresAt,
    };
    problems.throwIfAny();
    const changed =
      row.title !== filter.title ||
      row.action !== filter.action ||
      row.expiresAt !== filter.expiresAt ||
      JSON.stringify(row.context) !== JSON.stringify(filter.context);
    if (changed && (await ctx.repos.filters.keywordsOf([filter.id])).length > 1) {
      throw new ApiError(422, DEPRECATED_MULTIPLE_KEYWORDS);
    }
    const change = { id: keyword.id, keyword: phrase, wholeWord, destroy: false };
    const updated = await filters.updateFilter(ctx, filter, row, [change]);
    const next = { ...keyword, keyword: phrase ?? keyword.keyword, wholeWord: wholeWord ?? keyword.wholeWord };
    return c.json(serializeV1Filter(next, updated));
  });

  // Removes the keyword, and the filter with it when nothing is left in it.
  app.delete("/api/v1/filters/:id{[0-9]+}", WRITE_FILTERS, async (c) => {
    const { keyword } = await ownedV1(c);
    await filters.removeKeyword(c.env.ctx, me(c), keyword, { dropEmpty: true });
    return c.json({});
  });
}
