import {
  canonicalEmailBlockSchema,
  canonicalTestSchema,
  emailDomainBlockSchema,
  ipBlockSchema,
} from "../../api/v1/admin/block-routes.ts";
import type { DocArea } from "../types.ts";
import { d, EMPTY, pageOf } from "./common.ts";

const EDB = "AdminEmailDomainBlock";
const CEB = "AdminCanonicalEmailBlock";
const IPB = "AdminIpBlock";

/** Admin API: e-mail domain, canonical e-mail and IP blocks. */
export const adminBlockDocs: DocArea = {
  tag: "Admin",
  routes: {
    "GET /api/v1/admin/email_domain_blocks": pageOf("Blocked e-mail domains", EDB, 100, 200),
    "GET /api/v1/admin/email_domain_blocks/:id": d("One blocked e-mail domain", EDB),
    "POST /api/v1/admin/email_domain_blocks": d(
      "Block sign-ups from an e-mail domain and its subdomains (or, with `allow_with_approval`, send them to the approval queue)",
      EDB,
      { body: emailDomainBlockSchema },
    ),
    "DELETE /api/v1/admin/email_domain_blocks/:id": d("Unblock an e-mail domain", EMPTY),

    "GET /api/v1/admin/canonical_email_blocks": pageOf("Blocked e-mail addresses", CEB, 100, 200),
    "GET /api/v1/admin/canonical_email_blocks/:id": d("One blocked e-mail address", CEB),
    "POST /api/v1/admin/canonical_email_blocks/test": d("The blocks that match an e-mail address", `${CEB}[]`, {
      body: canonicalTestSchema,
      errors: [400],
    }),
    "POST /api/v1/admin/canonical_email_blocks": d(
      "Block an e-mail address (`email`, or `canonical_email_hash`: the hex SHA-256 of its canonical form)",
      CEB,
      { body: canonicalEmailBlockSchema },
    ),
    "DELETE /api/v1/admin/canonical_email_blocks/:id": d("Unblock an e-mail address", EMPTY),

    "GET /api/v1/admin/ip_blocks": pageOf("Blocked IP ranges", IPB, 100, 200),
    "GET /api/v1/admin/ip_blocks/:id": d("One blocked IP range", IPB),
    "POST /api/v1/admin/ip_blocks": d("Block an IP range", IPB, { body: ipBlockSchema }),
    "PUT /api/v1/admin/ip_blocks/:id": d("Change an IP block", IPB, { body: ipBlockSchema }),
    "DELETE /api/v1/admin/ip_blocks/:id": d("Remove an IP block", EMPTY),
  },
};
