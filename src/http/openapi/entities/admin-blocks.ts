import { z } from "zod";
import { dateTime, entity, id } from "./common.ts";

export const AdminEmailDomainBlock = entity(
  "AdminEmailDomainBlock",
  "A blocked e-mail domain (and its subdomains), with the sign-ups it caught over the last seven days.",
  z.object({
    id: id(),
    domain: z.string(),
    created_at: dateTime(),
    history: z.array(
      z.object({
        day: z.string().describe("UNIX time of the day's start (UTC), as a string"),
        accounts: z.string().describe("Distinct addresses that tried to sign up that day"),
        uses: z.string().describe("Sign-up attempts that day"),
      }),
    ),
    allow_with_approval: z.boolean(),
  }),
);

export const AdminCanonicalEmailBlock = entity(
  "AdminCanonicalEmailBlock",
  "A blocked e-mail address, as the SHA-256 of its canonical form.",
  z.object({ id: id(), canonical_email_hash: z.string() }),
);

export const AdminIpBlock = entity(
  "AdminIpBlock",
  "A blocked range of IP addresses.",
  z.object({
    id: id(),
    ip: z.string().describe("A CIDR range, `192.0.2.0/24`"),
    severity: z.enum(["sign_up_requires_approval", "sign_up_block", "no_access"]),
    comment: z.string(),
    created_at: dateTime(),
    expires_at: dateTime().nullable(),
  }),
);
