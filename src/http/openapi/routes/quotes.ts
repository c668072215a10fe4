import { z } from "zod";
import { quoteApprovalPolicy } from "../../api/v1/statuses/schemas.ts";
import type { DocArea } from "../types.ts";
import { d, pageOf } from "./common.ts";

const paths = { pathDescriptions: { quoting_status_id: "The quoting post" } };

/** Quote posts. */
export const quoteDocs: DocArea = {
  tag: "Quotes",
  description: "Quote posts: quotes of a post, revoking, who may quote",
  routes: {
    "GET /api/v1/statuses/:id{[0-9]+}/quotes": pageOf("Accepted quotes of one's own post", "Status", 20, 40, {
      description: "Only the post's author may list them (403 otherwise). Pages go by the quote, newest first.",
      errors: [403, 404],
    }),
    "POST /api/v1/statuses/:id{[0-9]+}/quotes/:quoting_status_id/revoke": d(
      "Revoke a quote of one's own post",
      "Status",
      {
        description:
          "The quote's state becomes `revoked` (it no longer counts in `quotes_count` and the quoted post is no longer shown in it); answers the quoting post.",
        errors: [403, 404],
        ...paths,
      },
    ),
    "PUT /api/v1/statuses/:id{[0-9]+}/interaction_policy": d("Change who may quote one's own post", "Status", {
      description:
        "`quote_approval_policy`: public, followers or nobody (absent: the account's default). A private or direct post may be quoted by its author only.",
      body: z.object({ quote_approval_policy: quoteApprovalPolicy.optional() }),
      errors: [403, 404],
    }),
  },
};
