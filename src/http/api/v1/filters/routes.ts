import type { Context, Hono } from "hono";
import { serializeV1Filter } from "../../../../serializers/filter.ts";
import * as filters from "../../../../services/filters/filters.ts";
import { createV1Filter, ownedV1Filter, updateV1Filter, v1Filters } from "../../../../services/filters/v1.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { Problems, parseContext, parseExpiresIn, parseTitle, parseWholeWord, toBool } from "../../v2/filters/params.ts";
import { READ_FILTERS, WRITE_FILTERS } from "../../v2/filters/routes.ts";

const has = (p: Record<string, unknown>, k: string) => Object.hasOwn(p, k);
const me = (c: Context<HonoEnv>) => currentAccount(c).id;

function parseIrreversible(v: unknown, problems: Problems): boolean {
  const b = toBool(v ?? false);
  if (b === undefined) problems.add("Irreversible is invalid");
  return b ?? false;
}

/** A keyword of the caller's with its filter. */
const ownedV1 = (c: Context<HonoEnv>) => ownedV1Filter(c.env.ctx, me(c), c.req.param("id") as string);

/**
 * 1.9 Filters, the deprecated v1 API: each V1::Filter is one keyword of a v2 filter (its `id`
 * the keyword's), `phrase` both the keyword and the filter's title, `irreversible` the `hide` action.
 */
export function v1FilterRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/filters", READ_FILTERS, async (c) => {
    const all = await v1Filters(c.env.ctx, me(c));
    return c.json(all.map(({ keyword, filter }) => serializeV1Filter(keyword, filter)));
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
    const row = {
      title: phrase,
      context,
      action: irreversible ? "hide" : "warn",
      expiresAt,
    } as filters.FilterRow;
    const { keyword, filter } = await createV1Filter(ctx, me(c), row, phrase as string, wholeWord ?? true);
    return c.json(serializeV1Filter(keyword, filter));
  });

  app.put("/api/v1/filters/:id{[0-9]+}", WRITE_FILTERS, async (c) => {
    const ctx = c.env.ctx;
    const owned = await ownedV1(c);
    const { filter } = owned;
    const p = await readParams(c);
    const problems = new Problems();
    const phrase = has(p, "phrase") ? parseTitle(p.phrase, problems, "Phrase") : undefined;
    const wholeWord = parseWholeWord(p.whole_word, problems);
    const row: filters.FilterRow = {
      title: phrase ?? filter.title,
      context: has(p, "context") ? (parseContext(p.context, problems) ?? []) : filter.context,
      action: !has(p, "irreversible") ? filter.action : parseIrreversible(p.irreversible, problems) ? "hide" : "warn",
      expiresAt: has(p, "expires_in") ? (parseExpiresIn(p.expires_in, problems, Date.now()) ?? null) : filter.expiresAt,
    };
    problems.throwIfAny();
    const { keyword, filter: updated } = await updateV1Filter(ctx, owned, row, { keyword: phrase, wholeWord });
    return c.json(serializeV1Filter(keyword, updated));
  });

  // Removes the keyword, and the filter with it when nothing is left in it.
  app.delete("/api/v1/filters/:id{[0-9]+}", WRITE_FILTERS, async (c) => {
    const { keyword } = await ownedV1(c);
    await filters.removeKeyword(c.env.ctx, me(c), keyword, { dropEmpty: true });
    return c.json({});
  });
}
