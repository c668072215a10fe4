import { z } from "zod";
import { dateTime, entity, id, url } from "./common.ts";
import { TagHistory } from "./statuses.ts";

/** Figures are decimal strings, as Mastodon sends them. */
const figure = () => z.string().regex(/^\d+$/);

export const AdminMeasure = entity(
  "AdminMeasure",
  "One dashboard measure over the requested days: its total, the total of the same number of days before (only for measures that count the days), and one figure a day.",
  z.object({
    key: z.string(),
    unit: z.string().nullable(),
    total: figure(),
    human_value: z.string().optional(),
    previous_total: figure().optional(),
    data: z.array(z.object({ date: dateTime(), value: figure() })),
  }),
);

export const AdminDimension = entity(
  "AdminDimension",
  "One dashboard breakdown: its biggest groups first (`limit` of them), each with a figure; sizes carry a unit and a readable value.",
  z.object({
    key: z.string(),
    data: z.array(
      z.object({
        key: z.string(),
        human_key: z.string(),
        value: z.string(),
        unit: z.string().optional(),
        human_value: z.string().optional(),
      }),
    ),
  }),
);

export const AdminCohort = entity(
  "AdminCohort",
  "The users who signed up in one day or month, and for it and each later period how many were active in it or after (`rate`: the share, 0 to 1).",
  z.object({
    period: dateTime(),
    frequency: z.enum(["day", "month"]),
    data: z.array(z.object({ date: dateTime(), rate: z.number(), value: figure() })),
  }),
);

export const AdminTag = entity(
  "AdminTag",
  "A hashtag as moderators see it: the Tag with its week of use, and the switches moderators set (unset ones as their defaults).",
  z.object({
    id: id(),
    name: z.string(),
    url: url(),
    history: z.array(TagHistory),
    following: z.boolean().optional(),
    featuring: z.boolean().optional(),
    trendable: z.boolean(),
    usable: z.boolean(),
    requires_review: z.boolean(),
    listable: z.boolean(),
  }),
);
