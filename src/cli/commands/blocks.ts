import type { AppContext } from "../../context.ts";
import { ApiError } from "../../lib/errors.ts";
import { COMMAND_LINE } from "../../services/moderation/action-log.ts";
import { activeIpBlocks, createIpBlock, destroyIpBlock, ipBlockByRange } from "../../services/moderation/ip-blocks.ts";
import {
  allCanonicalEmailBlocks,
  allEmailDomainBlocks,
  blockCanonicalEmail,
  blockLocalAccountEmail,
  canonicalEmailBlocksMatching,
  createEmailDomainBlock,
  destroyEmailDomainBlock,
  emailDomainBlockByDomain,
  removeCanonicalEmailBlocks,
} from "../../services/moderation/sign-up-blocks.ts";
import type { Output } from "../output.ts";
import type { BlocksCommand } from "../parse-blocks.ts";
import { CommandError } from "../usage.ts";

const yesNo = (b: boolean) => (b ? "yes" : "no");

/** `gannet email-domain-blocks|ip-blocks|canonical-email-blocks ...`; each change is in the action log. */
export async function blocksCommand(ctx: AppContext, cmd: BlocksCommand, io: Output): Promise<void> {
  switch (cmd.kind) {
    case "email-domain-blocks-add":
      for (const domain of cmd.domains) {
        if (await emailDomainBlockByDomain(ctx, domain)) {
          await io.out(`${domain} is already blocked`);
          continue;
        }
        await createEmailDomainBlock(ctx, COMMAND_LINE, { domain, allowWithApproval: cmd.allowWithApproval });
        await io.out(`Added ${domain}`);
      }
      return;
    case "email-domain-blocks-remove":
      for (const domain of cmd.domains) {
        const block = await emailDomainBlockByDomain(ctx, domain);
        if (!block) throw new CommandError(`${domain} is not blocked`);
        await destroyEmailDomainBlock(ctx, COMMAND_LINE, block);
        await io.out(`Removed ${domain}`);
      }
      return;
    case "email-domain-blocks-list": {
      const lines = ["domain\tallow with approval\tcreated at"];
      for (const b of await allEmailDomainBlocks(ctx)) {
        lines.push([b.domain, yesNo(b.allowWithApproval), b.createdAt].join("\t"));
      }
      await io.out(lines.join("\n"));
      return;
    }
    case "ip-blocks-add":
      for (const ip of cmd.ips) {
        if (await ipBlockByRange(ctx, ip)) {
          await io.out(`${ip} is already blocked`);
          continue;
        }
        await createIpBlock(ctx, COMMAND_LINE, {
          ip,
          severity: cmd.severity,
          comment: cmd.comment,
          expiresIn: cmd.duration,
        });
        await io.out(`Added ${ip}`);
      }
      return;
    case "ip-blocks-remove":
      for (const ip of cmd.ips) {
        const block = await ipBlockByRange(ctx, ip);
        if (!block) throw new CommandError(`${ip} is not blocked`);
        await destroyIpBlock(ctx, COMMAND_LINE, block);
        await io.out(`Removed ${ip}`);
      }
      return;
    case "ip-blocks-list": {
      const lines = ["ip\tseverity\texpires at\tcomment"];
      for (const b of await activeIpBlocks(ctx)) {
        lines.push([b.ip, b.severity, b.expiresAt ?? "never", b.comment.replace(/\s+/g, " ")].join("\t"));
      }
      await io.out(lines.join("\n"));
      return;
    }
    case "canonical-email-blocks-add":
      if (cmd.account !== undefined) {
        const block = await blockLocalAccountEmail(ctx, COMMAND_LINE, cmd.account);
        if (!block) throw new CommandError(`no local account named ${cmd.account}`);
        await io.out(`Blocked the address of ${cmd.account}: ${block.canonicalEmailHash}`);
        return;
      }
      for (const email of cmd.emails) {
        if ((await canonicalEmailBlocksMatching(ctx, email)).length > 0) {
          await io.out(`${email} is already blocked`);
          continue;
        }
        try {
          const block = await blockCanonicalEmail(ctx, COMMAND_LINE, email, null);
          await io.out(`Added ${email}: ${block.canonicalEmailHash}`);
        } catch (e) {
          if (e instanceof ApiError) throw new CommandError(`${email}: ${e.message}`);
          throw e;
        }
      }
      return;
    case "canonical-email-blocks-remove":
      for (const value of cmd.emails) {
        const removed = await removeCanonicalEmailBlocks(ctx, COMMAND_LINE, value);
        if (removed === 0) throw new CommandError(`${value} is not blocked`);
        await io.out(`Removed ${value}`);
      }
      return;
    case "canonical-email-blocks-list": {
      const lines = ["id\tcanonical email hash\taccount id"];
      for (const b of await allCanonicalEmailBlocks(ctx)) {
        lines.push([b.id, b.canonicalEmailHash, b.referenceAccountId ?? ""].join("\t"));
      }
      await io.out(lines.join("\n"));
      return;
    }
  }
}
