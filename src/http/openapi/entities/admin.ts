import { z } from "zod";
import { Account, Role } from "./accounts.ts";
import { dateTime, entity, id } from "./common.ts";
import { Rule } from "./instance.ts";
import { Status } from "./statuses.ts";

/** What a report is, as both its reporter and the moderators see it. */
const reportFields = () => ({
  id: id(),
  action_taken: z.boolean(),
  action_taken_at: dateTime().nullable(),
  category: z.enum(["spam", "legal", "violation", "other"]),
  comment: z.string(),
  forwarded: z.boolean(),
  created_at: dateTime(),
});

export const Report = entity(
  "Report",
  "A report of an account (and some of its posts) to the moderators, as its reporter sees it.",
  z.object({
    ...reportFields(),
    status_ids: z.array(id()),
    rule_ids: z.array(id()).nullable(),
    target_account: Account,
  }),
);

export const AdminAccount = entity(
  "AdminAccount",
  "An account as moderators see it: sign-up facts and moderation state; a remote one has no user facts.",
  z.object({
    id: id(),
    username: z.string(),
    domain: z.string().nullable(),
    created_at: dateTime(),
    email: z.string().nullable(),
    ip: z.string().nullable(),
    confirmed: z.boolean(),
    suspended: z.boolean(),
    silenced: z.boolean(),
    sensitized: z.boolean(),
    disabled: z.boolean(),
    approved: z.boolean(),
    locale: z.string().nullable(),
    invite_request: z.string().nullable(),
    created_by_application_id: id().optional(),
    invited_by_account_id: id().optional(),
    ips: z.array(z.object({ ip: z.string(), used_at: dateTime() })),
    account: Account,
    role: Role.nullable(),
  }),
);

export const AdminReport = entity(
  "AdminReport",
  "A report as moderators see it: who filed it, whom it targets, who handles it, what it names.",
  z.object({
    ...reportFields(),
    updated_at: dateTime(),
    account: AdminAccount,
    target_account: AdminAccount,
    assigned_account: AdminAccount.nullable(),
    action_taken_by_account: AdminAccount.nullable(),
    statuses: z.array(Status),
    rules: z.array(Rule),
  }),
);

export const ErrorEntity = entity(
  "Error",
  "What every failed request answers: a message; OAuth errors add a longer description, failed " +
    "validations the failing fields, a post mentioning accounts it may not the accounts.",
  z.object({
    error: z.string(),
    error_description: z.string().optional(),
    details: z.record(z.string(), z.array(z.object({ error: z.string(), description: z.string() }))).optional(),
    unexpected_accounts: z.array(Account).optional(),
  }),
);
