import type { AppContext } from "../../context.ts";
import type { CanonicalEmailBlock, EmailDomainBlock, IpBlock } from "../../db/repositories/sign-up-blocks.ts";
import { emailDomainBlockHistories, type HistoryDay } from "./sign-up-blocks.ts";

/** REST::Admin::EmailDomainBlockSerializer. */
export interface EmailDomainBlockJson {
  id: string;
  domain: string;
  created_at: string;
  history: HistoryDay[];
  allow_with_approval: boolean;
}

/** REST::Admin::CanonicalEmailBlockSerializer. */
export interface CanonicalEmailBlockJson {
  id: string;
  canonical_email_hash: string;
}

/** REST::Admin::IpBlockSerializer. */
export interface IpBlockJson {
  id: string;
  ip: string;
  severity: string;
  comment: string;
  created_at: string;
  expires_at: string | null;
}

/** E-mail domain blocks as the admin API renders them, each with its seven-day history. */
export async function emailDomainBlocksJson(
  ctx: AppContext,
  blocks: EmailDomainBlock[],
): Promise<EmailDomainBlockJson[]> {
  const histories = await emailDomainBlockHistories(ctx, blocks);
  return blocks.map((b) => ({
    id: b.id,
    domain: b.domain,
    created_at: b.createdAt,
    history: histories.get(b.id) ?? [],
    allow_with_approval: b.allowWithApproval,
  }));
}

export function canonicalEmailBlockJson(b: CanonicalEmailBlock): CanonicalEmailBlockJson {
  return { id: b.id, canonical_email_hash: b.canonicalEmailHash };
}

export function ipBlockJson(b: IpBlock): IpBlockJson {
  return {
    id: b.id,
    ip: b.ip,
    severity: b.severity,
    comment: b.comment,
    created_at: b.createdAt,
    expires_at: b.expiresAt,
  };
}
