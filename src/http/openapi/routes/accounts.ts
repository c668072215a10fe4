import { z } from "zod";
import { noteSchema } from "../../api/v1/endorsements/routes.ts";
import { followSchema } from "../../api/v1/follows/routes.ts";
import { muteSchema, relationshipsSchema } from "../../api/v1/relationships/routes.ts";
import { arrayOf, intish } from "../../validate.ts";
import type { DocArea } from "../types.ts";
import { bool, d, EMPTY, html, ids, pageOf, str } from "./common.ts";

/** Parameters these routes read by hand (registration-routes.ts, accounts/schemas.ts, lookup-routes.ts). */
const registration = z.object({
  username: z.string(),
  email: z.string(),
  password: z.string(),
  agreement: z.boolean().describe("Agreement to the server's rules and terms"),
  locale: z.string().describe("The user's language"),
  reason: z.string().optional().describe("Why they want to join, when sign-ups need approval"),
  date_of_birth: z.string().optional().describe("YYYY-MM-DD; required when the server has a minimum age"),
});
const file = z.string().meta({ contentMediaType: "image/*" });
const credentials = z.object({
  display_name: str,
  note: str.describe("Profile bio (plain text)"),
  avatar: file.optional(),
  header: file.optional(),
  locked: bool.describe("Follow requests must be approved"),
  bot: bool,
  discoverable: bool,
  hide_collections: bool,
  indexable: bool,
  fields_attributes: z
    .array(z.object({ name: z.string(), value: z.string() }))
    .optional()
    .describe("Profile fields, as `fields_attributes[0][name]`"),
  attribution_domains: z
    .array(z.string())
    .max(10)
    .optional()
    .describe("Sites that may name this account as an article's author, as `attribution_domains[]`"),
  source: z
    .object({ privacy: str, sensitive: bool, language: str, quote_policy: str })
    .optional()
    .describe("Posting defaults, as `source[privacy]`"),
});
const lookup = z.object({ acct: z.string().describe("`user` or `user@domain`") });
const follow = followSchema.extend({ languages: arrayOf(z.string()).optional().describe("Only these languages") });
const relationships = relationshipsSchema.extend({ id: arrayOf(z.string()) });
const domain = z.object({ domain: z.string() });
const directory = z.object({
  limit: intish.optional(),
  offset: intish.optional(),
  order: z.enum(["active", "new"]).optional(),
  local: bool,
});
const featuredTag = z.object({ name: z.string().describe("A hashtag, without `#`") });
const tagName = { pathDescriptions: { name: "A hashtag, without `#`" } };
const suggestions = z.object({ limit: intish.optional() });
const R = "Relationship";

/** Accounts: registration, credentials, lookup, relationships, follows, endorsements, tags, suggestions. */
export const accountDocs: DocArea = {
  tag: "Accounts",
  description: "Registration, the user's own account, other accounts and relationships with them",
  routes: {
    "POST /api/v1/accounts": d("Register an account", "Token", {
      description: "With an app token (`write:accounts`); answers the new user's token.",
      body: registration,
      answers: { 429: "Error" },
    }),
    "POST /api/v1/emails/confirmations": d("Resend the confirmation e-mail", EMPTY, {
      auth: "token",
      scopes: ["write", "write:accounts"],
      body: z.object({ email: z.string().optional().describe("A corrected address") }),
      errors: [401, 403],
    }),
    "GET /api/v1/emails/check_confirmation": d(
      "Whether the user's e-mail is confirmed",
      { schema: { type: "boolean" } },
      {
        auth: "token",
        scopes: ["read", "read:accounts"],
        errors: [401, 403],
      },
    ),
    "GET /auth/confirmation": d("Confirm an e-mail address (the link in the e-mail)", html, {
      query: z.object({
        confirmation_token: z.string(),
        redirect_to_app: z.enum(["true"]).optional().describe("Go on to the app that registered the account"),
      }),
      answers: { 302: null, 404: { ...html, description: "An HTML page: the link is invalid or used" } },
      auth: "none",
      tags: ["OAuth"],
    }),
    "GET /api/v1/accounts/verify_credentials": d("The user's own account, with `source`", "CredentialAccount"),
    "PATCH /api/v1/accounts/update_credentials": d("Update the profile and settings", "CredentialAccount", {
      body: credentials,
      multipart: true,
    }),
    "PUT /api/v1/accounts/update_credentials": d("Update the profile and settings (as PATCH)", "CredentialAccount", {
      body: credentials,
      multipart: true,
    }),
    "DELETE /api/v1/profile/avatar": d("Remove the avatar", "CredentialAccount"),
    "DELETE /api/v1/profile/header": d("Remove the header image", "CredentialAccount"),
    "GET /api/v1/preferences": d("The user's posting and reading preferences", "Preferences"),
    "GET /api/v1/accounts/lookup": d("An account by its address", "Account", {
      description: "An unknown remote account is resolved by WebFinger.",
      query: lookup,
      errors: [404],
    }),
    "GET /api/v1/accounts": d("Accounts by id", "Account[]", { query: ids }),
    "GET /api/v1/accounts/:id{[0-9]+}": d("One account", "Account", { answers: { 410: "Error" } }),
    "POST /api/v1/accounts/:id{[0-9]+}/block": d("Block an account", R),
    "POST /api/v1/accounts/:id{[0-9]+}/unblock": d("Unblock an account", R),
    "POST /api/v1/accounts/:id{[0-9]+}/mute": d("Mute an account", R, { body: muteSchema }),
    "POST /api/v1/accounts/:id{[0-9]+}/unmute": d("Unmute an account", R),
    "GET /api/v1/blocks": pageOf("Blocked accounts", "Account", 40, 80),
    "GET /api/v1/mutes": pageOf("Muted accounts", "MutedAccount", 40, 80),
    "GET /api/v1/domain_blocks": pageOf("Domains the user blocks", "string", 100, 200, {
      ok: { schema: { type: "array", items: { type: "string" } }, description: "Domain names" },
    }),
    "POST /api/v1/domain_blocks": d("Block a domain", EMPTY, { body: domain }),
    "DELETE /api/v1/domain_blocks": d("Unblock a domain", EMPTY, { body: domain }),
    "GET /api/v1/domain_blocks/preview": d("What blocking a domain would cut", "DomainBlockPreview", { query: domain }),
    "GET /api/v1/accounts/relationships": d("Relationships with accounts", "Relationship[]", { query: relationships }),
    "POST /api/v1/accounts/:id{[0-9]+}/follow": d("Follow an account (or ask to)", R, {
      body: follow,
      answers: { 429: "Error" },
    }),
    "POST /api/v1/accounts/:id{[0-9]+}/unfollow": d("Unfollow an account", R),
    "POST /api/v1/accounts/:id{[0-9]+}/remove_from_followers": d("Remove an account from the followers", R),
    "GET /api/v1/accounts/:id{[0-9]+}/followers": pageOf("Followers of an account", "Account", 40, 80),
    "GET /api/v1/accounts/:id{[0-9]+}/following": pageOf("Accounts an account follows", "Account", 40, 80),
    "GET /api/v1/follow_requests": pageOf("Pending follow requests", "Account", 40, 80),
    "POST /api/v1/follow_requests/:id{[0-9]+}/authorize": d("Accept a follow request", R),
    "POST /api/v1/follow_requests/:id{[0-9]+}/reject": d("Reject a follow request", R),
    "GET /api/v1/accounts/familiar_followers": d(
      "Followed accounts that follow these accounts",
      "FamiliarFollowers[]",
      {
        query: ids,
      },
    ),
    "POST /api/v1/accounts/:id{[0-9]+}/endorse": d("Feature an account on the profile", R),
    "POST /api/v1/accounts/:id{[0-9]+}/pin": d("Feature an account on the profile (old name)", R, { deprecated: true }),
    "POST /api/v1/accounts/:id{[0-9]+}/unendorse": d("Stop featuring an account", R),
    "POST /api/v1/accounts/:id{[0-9]+}/unpin": d("Stop featuring an account (old name)", R, { deprecated: true }),
    "POST /api/v1/accounts/:id{[0-9]+}/note": d("Set a private note on an account", R, { body: noteSchema }),
    "GET /api/v1/endorsements": pageOf("Accounts the user features", "Account", 40, 80),
    "GET /api/v1/accounts/:id{[0-9]+}/endorsements": pageOf("Accounts an account features", "Account", 40, 80),
    "GET /api/v1/accounts/:id{[0-9]+}/featured_tags": d("Hashtags an account features", "FeaturedTag[]"),
    "GET /api/v1/accounts/:id{[0-9]+}/lists": d("The user's lists that hold an account", "List[]", {
      tags: ["Lists"],
    }),
    "POST /api/v1/tags/:name/follow": d("Follow a hashtag", "Tag", { ...tagName, tags: ["Tags"] }),
    "POST /api/v1/tags/:name/unfollow": d("Unfollow a hashtag", "Tag", { ...tagName, tags: ["Tags"] }),
    "POST /api/v1/tags/:name/feature": d("Feature a hashtag on the profile", "Tag", { ...tagName, tags: ["Tags"] }),
    "POST /api/v1/tags/:name/unfeature": d("Stop featuring a hashtag", "Tag", { ...tagName, tags: ["Tags"] }),
    "GET /api/v1/followed_tags": pageOf("Hashtags the user follows", "Tag", 100, 200, { tags: ["Tags"] }),
    "GET /api/v1/featured_tags": d("Hashtags the user features", "FeaturedTag[]", { tags: ["Tags"] }),
    "POST /api/v1/featured_tags": d("Feature a hashtag", "FeaturedTag", { body: featuredTag, tags: ["Tags"] }),
    "GET /api/v1/featured_tags/suggestions": d("Hashtags the user used most, to feature", "Tag[]", { tags: ["Tags"] }),
    "DELETE /api/v1/featured_tags/:id": d("Stop featuring a hashtag", EMPTY, { tags: ["Tags"] }),
    "GET /api/v2/suggestions": d("Accounts to follow, with why", "Suggestion[]", { query: suggestions }),
    "GET /api/v1/suggestions": d("Accounts to follow", "Account[]", { query: suggestions, deprecated: true }),
    "DELETE /api/v1/suggestions/:id": d("Stop suggesting an account", EMPTY),
    "GET /api/v1/directory": d("The profile directory", "Account[]", { query: directory }),
    "GET /api/v1/accounts/search": d("Search accounts", "Account[]", {
      query: z.object({
        q: z.string(),
        limit: intish.optional(),
        offset: intish.optional(),
        resolve: bool.describe("Resolve a remote address by WebFinger"),
        following: bool.describe("Only accounts the user follows"),
      }),
      tags: ["Search"],
    }),
  },
};
