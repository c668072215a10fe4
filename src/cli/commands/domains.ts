import type { AppContext } from "../../context.ts";
import { purgeDomainMediaCache } from "../../services/media/remote-cache.ts";
import type { Output } from "../output.ts";
import type { DomainsCommand } from "../parse-domains.ts";
import { CommandError } from "../usage.ts";

const yesNo = (b: boolean) => (b ? "yes" : "no");

/** `gannet domains block`: adds or changes the block and applies its severity to known accounts. */
export async function domainsBlock(
  ctx: AppContext,
  cmd: Extract<DomainsCommand, { kind: "domains-block" }>,
  io: Output,
): Promise<void> {
  if (cmd.domain === ctx.config.localDomain.toLowerCase() || cmd.domain === ctx.config.webDomain.toLowerCase()) {
    throw new CommandError("this server's own domain cannot be blocked");
  }
  const now = new Date().toISOString();
  const repo = ctx.repos.instanceDomainBlocks;
  // A block made milder lifts what the harsher one did first.
  await repo.liftFromAccounts(cmd.domain);
  await repo.upsert(cmd, ctx.ids.next(), now);
  await repo.applyToAccounts(cmd.domain, cmd.severity, now);
  // Cached copies of the domain's media go, as on Mastodon (services/media/remote-cache.ts).
  if (cmd.rejectMedia || cmd.severity === "suspend") await purgeDomainMediaCache(ctx, cmd.domain);
  await io.out("OK");
}

export async function domainsChange(
  ctx: AppContext,
  cmd: Extract<DomainsCommand, { kind: "domains-unblock" | "domains-allow" | "domains-disallow" }>,
  io: Output,
): Promise<void> {
  const repo = ctx.repos.instanceDomainBlocks;
  if (cmd.kind === "domains-unblock") {
    if (!(await repo.delete(cmd.domain))) throw new CommandError(`${cmd.domain} is not blocked`);
    await repo.liftFromAccounts(cmd.domain);
  } else if (cmd.kind === "domains-allow") {
    await repo.allow(cmd.domain, ctx.ids.next(), new Date().toISOString());
  } else if (!(await repo.disallow(cmd.domain))) {
    throw new CommandError(`${cmd.domain} is not allowed`);
  }
  await io.out("OK");
}

export async function domainsList(ctx: AppContext, io: Output): Promise<void> {
  const lines = ["domain\tseverity\treject media\treject reports\tpublic comment"];
  for (const b of await ctx.repos.instanceDomainBlocks.list()) {
    lines.push([b.domain, b.severity, yesNo(b.rejectMedia), yesNo(b.rejectReports), b.publicComment ?? ""].join("\t"));
  }
  lines.push("allowed:", ...(await ctx.repos.instanceDomainBlocks.listAllows()));
  await io.out(lines.join("\n"));
}
