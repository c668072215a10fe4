import type { AppContext } from "../../context.ts";
import { ApiError } from "../../lib/errors.ts";
import { COMMAND_LINE } from "../../services/moderation/action-log.ts";
import * as domains from "../../services/moderation/domain-blocks.ts";
import type { Output } from "../output.ts";
import type { DomainsCommand } from "../parse-domains.ts";
import { CommandError } from "../usage.ts";

const yesNo = (b: boolean) => (b ? "yes" : "no");

/** The service's refusals (a 4xx) as the command's error message. */
async function refused<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ApiError && e.status < 500) throw new CommandError(e.message.replace(/^Validation failed: /, ""));
    throw e;
  }
}

/**
 * `gannet domains block`: adds the block, or changes the domain's own block (the same service as
 * the admin API: the severity is applied to known accounts, a suspension's purge runs as jobs).
 */
export async function domainsBlock(
  ctx: AppContext,
  cmd: Extract<DomainsCommand, { kind: "domains-block" }>,
  io: Output,
): Promise<void> {
  const { kind: _kind, ...input } = cmd;
  const { block } = await refused(async () => {
    const domain = domains.blockDomain(ctx, input.domain);
    return domains.blockOrUpdate(ctx, COMMAND_LINE, { ...input, domain });
  });
  // The cached media go now (the server's job finds none left): the operator sees them gone.
  await domains.clearDomainMedia(ctx, block);
  await io.out("OK");
}

export async function domainsChange(
  ctx: AppContext,
  cmd: Extract<DomainsCommand, { kind: "domains-unblock" | "domains-allow" | "domains-disallow" }>,
  io: Output,
): Promise<void> {
  if (cmd.kind === "domains-unblock") {
    const block = await domains.domainBlockOf(ctx, cmd.domain);
    if (!block) throw new CommandError(`${cmd.domain} is not blocked`);
    await domains.destroyDomainBlock(ctx, COMMAND_LINE, block);
  } else if (cmd.kind === "domains-allow") {
    await domains.createDomainAllow(ctx, COMMAND_LINE, cmd.domain);
  } else {
    const allow = await domains.domainAllowOf(ctx, cmd.domain);
    if (!allow) throw new CommandError(`${cmd.domain} is not allowed`);
    await domains.destroyDomainAllow(ctx, COMMAND_LINE, allow);
  }
  await io.out("OK");
}

export async function domainsList(ctx: AppContext, io: Output): Promise<void> {
  const { blocks, allows } = await domains.allBlocksAndAllows(ctx);
  const lines = ["domain\tseverity\treject media\treject reports\tpublic comment"];
  for (const b of blocks) {
    lines.push([b.domain, b.severity, yesNo(b.rejectMedia), yesNo(b.rejectReports), b.publicComment ?? ""].join("\t"));
  }
  lines.push("allowed:", ...allows);
  await io.out(lines.join("\n"));
}
