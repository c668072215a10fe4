import { z } from "zod";
import { Account } from "./accounts.ts";
import { dateTime, entity, id } from "./common.ts";

export const AdminRole = entity(
  "AdminRole",
  "A role as the admin roles API (a Gannet extension) shows it: Mastodon's Role entity plus its `position` (a higher position outranks a lower one; the everyone role, id -99, is at -1).",
  z.object({
    id: id(),
    name: z.string(),
    permissions: z.string(),
    color: z.string(),
    highlighted: z.boolean(),
    position: z.number().int(),
  }),
);

export const AdminActionLog = entity(
  "AdminActionLog",
  "One entry of the action log (a Gannet extension after Mastodon's Admin::ActionLog): who did what to which target, when. `account` is null for the `gannet` command.",
  z.object({
    id: id(),
    action: z.string(),
    target_type: z.string(),
    target_id: id().nullable(),
    human_identifier: z.string().nullable(),
    summary: z.string(),
    account: Account.nullable(),
    created_at: dateTime(),
  }),
);
