import { z } from "zod";
import { dateTime, entity, filterContext, id } from "./common.ts";

export const FilterKeyword = entity(
  "FilterKeyword",
  "A word or phrase a filter looks for in posts.",
  z.object({ id: id(), keyword: z.string(), whole_word: z.boolean() }),
);

export const FilterStatus = entity(
  "FilterStatus",
  "A single post a filter hides.",
  z.object({ id: id(), status_id: id() }),
);

export const Filter = entity(
  "Filter",
  "A user's filter (v2): where it applies, what it does, and (from the filters API, not inside a " +
    "FilterResult) its keywords and posts.",
  z.object({
    id: id(),
    title: z.string(),
    context: z.array(filterContext()),
    expires_at: dateTime().nullable(),
    filter_action: z.enum(["warn", "hide", "blur"]),
    keywords: z.array(FilterKeyword).optional(),
    statuses: z.array(FilterStatus).optional(),
  }),
);

export const FilterResult = entity(
  "FilterResult",
  "One of the viewer's filters a post matched, and by which keywords or post ids.",
  z.object({
    filter: Filter,
    keyword_matches: z.array(z.string()).nullable(),
    status_matches: z.array(id()).nullable(),
  }),
);

export const FilterV1 = entity(
  "FilterV1",
  "The deprecated v1 filter: one keyword of a v2 filter, `irreversible` when the filter hides.",
  z.object({
    id: id(),
    phrase: z.string(),
    context: z.array(filterContext()),
    whole_word: z.boolean(),
    expires_at: dateTime().nullable(),
    irreversible: z.boolean(),
  }),
);

export const List = entity(
  "List",
  "A user's list of followed accounts, with which replies its timeline shows.",
  z.object({
    id: id(),
    title: z.string(),
    replies_policy: z.enum(["followed", "list", "none"]),
    exclusive: z.boolean(),
  }),
);
