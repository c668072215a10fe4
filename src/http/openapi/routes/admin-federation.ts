import { z } from "zod";
import { blockPatchSchema } from "../../api/v1/admin/domain-routes.ts";
import type { DocArea } from "../types.ts";
import { d, EMPTY, pageOf } from "./common.ts";

const DB = "AdminDomainBlock";
const DA = "AdminDomainAllow";
const domain = z.object({ domain: z.string().describe("The domain (a block covers its subdomains); may name a port") });
const csv = { schema: { type: "string" }, type: "text/csv", description: "A CSV file" };
const download = (summary: string, description: string) =>
  d(summary, csv, {
    description,
    tags: ["Notifications"],
    auth: "optional" as const,
    scopes: ["read:follows"],
    validates: false,
    answers: { 302: null },
    errors: [401, 403, 404],
  });

/** Admin API: domain blocks and domain allows. */
export const adminFederationDocs: DocArea = {
  tag: "Admin",
  routes: {
    "GET /api/v1/admin/domain_blocks": pageOf("Domain blocks, newest first", DB, 100, 200),
    "GET /api/v1/admin/domain_blocks/:id": d("One domain block", DB),
    "POST /api/v1/admin/domain_blocks": d("Block a domain", DB, {
      description:
        "Applies the severity to the domain's known accounts (silence or suspend, marked with the block's " +
        "creation time); a suspension removes the domain's posts, media and follows in background jobs and " +
        "notifies the local users who lost follows (`severed_relationships`). A domain already covered by a " +
        "block (its own, or a parent's at least as strong) is refused with 422 and `existing_domain_block`, " +
        "that block as this API renders it.",
      body: blockPatchSchema.extend(domain.shape),
    }),
    "PUT /api/v1/admin/domain_blocks/:id": d("Change a domain block", DB, {
      description:
        "A severity change first lifts what the earlier severity did to the accounts the block limited " +
        "(accounts limited one by one stay), then applies the new one.",
      body: blockPatchSchema,
    }),
    "DELETE /api/v1/admin/domain_blocks/:id": d(
      "Remove a domain block (lifts the silence or suspension it put on accounts)",
      EMPTY,
    ),
    "GET /api/v1/admin/domain_allows": pageOf("Domain allows, newest first", DA, 100, 200),
    "GET /api/v1/admin/domain_allows/:id": d("One domain allow", DA),
    "POST /api/v1/admin/domain_allows": d("Allow a domain (limited-federation mode)", DA, {
      description: "An allow of a domain already allowed is answered as it is.",
      body: domain,
    }),
    "DELETE /api/v1/admin/domain_allows/:id": d("Remove a domain allow", EMPTY),
    "GET /severed_relationships/:id/following.csv": download(
      "The follows a moderation action cut, as an import file",
      "Columns `Account address`, `Show boosts`, `Notify on new posts`, `Languages`. `:id` is the " +
        "`severed_relationships` notification's `event.id`. A signed-in browser session, or a token with " +
        "`read:follows`; without either, a redirect to the sign-in form.",
    ),
    "GET /severed_relationships/:id/followers.csv": download(
      "The followers a moderation action took away",
      "Column `Account address`. `:id` is the `severed_relationships` notification's `event.id`.",
    ),
  },
};
