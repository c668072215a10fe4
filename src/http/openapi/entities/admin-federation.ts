import { z } from "zod";
import { dateTime, entity, id } from "./common.ts";

export const AdminDomainBlock = entity(
  "AdminDomainBlock",
  "A domain the server limits or cuts off (Admin::DomainBlock); `digest` is the SHA-256 of the domain, in hex.",
  z.object({
    id: id(),
    domain: z.string(),
    digest: z.string(),
    created_at: dateTime(),
    severity: z.enum(["silence", "suspend", "noop"]),
    reject_media: z.boolean(),
    reject_reports: z.boolean(),
    private_comment: z.string().nullable(),
    public_comment: z.string().nullable(),
    obfuscate: z.boolean(),
  }),
);

export const AdminDomainAllow = entity(
  "AdminDomainAllow",
  "A domain the server federates with in limited-federation mode (Admin::DomainAllow).",
  z.object({ id: id(), domain: z.string(), created_at: dateTime() }),
);
