import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, pageOf } from "./common.ts";

const AA = "AdminAccount";
const flag = (what: string) => z.string().optional().describe(`${what} (any value counts)`);
const texts = {
  username: z.string().optional().describe("Usernames starting with this (any case)"),
  display_name: z.string().optional().describe("Display names starting with this (any case)"),
  by_domain: z.string().optional().describe("Accounts of exactly this domain"),
  email: z.string().optional().describe("E-mail addresses starting with this (any case)"),
  ip: z.string().optional().describe("Users who signed up or signed in from this address or CIDR range"),
};

/** What `GET /api/v1/admin/accounts` reads (Mastodon's older flags). */
const v1 = z.object({
  local: flag("Local accounts (the default)"),
  remote: flag("Remote accounts instead of local ones"),
  active: flag("Accounts not suspended (the default status)"),
  pending: flag("Users waiting for approval"),
  disabled: flag("Users whose login is disabled"),
  silenced: flag("Limited accounts"),
  suspended: flag("Suspended accounts"),
  sensitized: flag("Accounts whose media are forced sensitive"),
  staff: flag("Users whose role can manage reports"),
  ...texts,
});

/** What `GET /api/v2/admin/accounts` reads. */
const v2 = z.object({
  origin: z.enum(["local", "remote"]).optional(),
  status: z.enum(["active", "pending", "disabled", "silenced", "suspended", "sensitized"]).optional(),
  permissions: z.enum(["staff"]).optional().describe("Users whose role can manage reports (overrides `role_ids[]`)"),
  role_ids: z.array(z.string()).optional().describe("Users holding one of these roles, as `role_ids[]`"),
  invited_by: z.string().optional().describe("Accounts invited by this one (Gannet has no invites: none)"),
  ...texts,
});

/** Admin API: account listings, one account, approve, reject, enable. */
export const adminAccountDocs: DocArea = {
  tag: "Admin",
  routes: {
    "GET /api/v1/admin/accounts": pageOf("Accounts (older filters)", AA, 100, 200, {
      query: v1,
      validates: false,
      errors: [400],
      description: "Local, active accounts unless the flags say otherwise; newest first.",
    }),
    "GET /api/v2/admin/accounts": pageOf("Accounts", AA, 100, 200, {
      query: v2,
      validates: false,
      errors: [400],
      description: "Every account unless filtered; newest first. An unknown `origin` or `status` is a 400.",
    }),
    "GET /api/v1/admin/accounts/:id": d("One account", AA),
    "POST /api/v1/admin/accounts/:id/approve": d("Approve a pending sign-up", AA, {
      description: "403 for a remote account or a user already approved.",
    }),
    "POST /api/v1/admin/accounts/:id/reject": d("Reject a pending sign-up", AA, {
      description:
        "Deletes the user and the account, so the name can be taken again; answers the account as it was. " +
        "403 for a remote account or a user already approved.",
    }),
    "POST /api/v1/admin/accounts/:id/enable": d("Enable a disabled login", AA, {
      description: "403 for a remote account.",
    }),
  },
};
