import type { DomainBlockInput, DomainBlockSeverity } from "../db/repositories/instance-domain-blocks.ts";
import { normalizeDomainWithPort } from "../lib/domains.ts";
import { type Command, parseStrict } from "./parse-command.ts";
import { UsageError } from "./usage.ts";

/** `gannet domains ...`: instance-level domain blocks and allows until the admin API comes. */
export type DomainsCommand =
  | ({ kind: "domains-block" } & DomainBlockInput)
  | { kind: "domains-unblock" | "domains-allow" | "domains-disallow"; domain: string }
  | { kind: "domains-list" };

export const DOMAINS_BLOCK_USAGE = `Usage: gannet domains block DOMAIN [--severity suspend|silence|noop] [--reject-media]
                             [--reject-reports] [--private-comment TEXT] [--public-comment TEXT]
                             [--obfuscate]

Blocks a domain for the whole server (Mastodon's domain blocks), or changes its block, and
prints OK. A block covers the domain's subdomains; DOMAIN may name a port (host:port).
  --severity suspend  (the default) refuse its activities, deliver nothing to it, suspend its
                      accounts known here
  --severity silence  keep federating, but its accounts are silenced (limited)
  --severity noop     only what the flags below say
  --reject-media      do not fetch or show its media (avatars, attachments, emojis)
  --reject-reports    ignore the reports (Flag) it forwards
  --private-comment, --public-comment   notes for moderators and for the public list
  --obfuscate         hide the domain name when the list is shown publicly
`;

export const DOMAINS_UNBLOCK_USAGE = `Usage: gannet domains unblock DOMAIN

Removes the block of exactly DOMAIN, lifts the silence or suspension it put on the domain's
accounts, and prints OK.
`;

export const DOMAINS_LIST_USAGE = `Usage: gannet domains list

Prints one tab-separated line per block after a header line (domain, severity, reject media,
reject reports, public comment), then the allowed domains (limited-federation mode), one a line
after "allowed:".
`;

export const DOMAINS_ALLOW_USAGE = `Usage: gannet domains allow DOMAIN
       gannet domains disallow DOMAIN

With LIMITED_FEDERATION_MODE=true, the server federates only with allowed domains (and their
subdomains). Prints OK.
`;

export const DOMAINS_USAGE = `Usage: gannet domains block DOMAIN [--severity suspend|silence|noop] [--reject-media] [--reject-reports]
                            [--private-comment TEXT] [--public-comment TEXT] [--obfuscate]
       gannet domains unblock DOMAIN
       gannet domains list
       gannet domains allow DOMAIN
       gannet domains disallow DOMAIN

Run "gannet help domains block" (or unblock, list, allow) for the details.
`;

/** A domain as Mastodon normalises it (lower case, punycode), with an optional port. */
export function parseDomainArg(value: string, usage: string): string {
  const domain = normalizeDomainWithPort(value);
  if (domain === null) throw new UsageError(`"${value}" is not a domain`, usage);
  return domain;
}

function oneDomain(args: string[], usage: string): string {
  const { positionals } = parseStrict(args, {}, usage);
  if (positionals.length === 0) throw new UsageError("missing DOMAIN", usage);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`, usage);
  return parseDomainArg(positionals[0] as string, usage);
}

function parseBlock(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(
    args,
    {
      severity: { type: "string" },
      "reject-media": { type: "boolean" },
      "reject-reports": { type: "boolean" },
      "private-comment": { type: "string" },
      "public-comment": { type: "string" },
      obfuscate: { type: "boolean" },
    },
    usage,
  );
  if (positionals.length === 0) throw new UsageError("missing DOMAIN", usage);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`, usage);
  const severity = (values.severity ?? "suspend") as string;
  if (!["suspend", "silence", "noop"].includes(severity)) {
    throw new UsageError(`--severity must be suspend, silence or noop, got "${severity}"`, usage);
  }
  return {
    kind: "domains-block",
    domain: parseDomainArg(positionals[0] as string, usage),
    severity: severity as DomainBlockSeverity,
    rejectMedia: values["reject-media"] === true,
    rejectReports: values["reject-reports"] === true,
    privateComment: (values["private-comment"] as string | undefined) ?? null,
    publicComment: (values["public-comment"] as string | undefined) ?? null,
    obfuscate: values.obfuscate === true,
  };
}

export const DOMAINS_SUBCOMMANDS: Record<string, { usage: string; parse: (args: string[], usage: string) => Command }> =
  {
    "domains block": { usage: DOMAINS_BLOCK_USAGE, parse: parseBlock },
    "domains unblock": {
      usage: DOMAINS_UNBLOCK_USAGE,
      parse: (args, usage) => ({ kind: "domains-unblock", domain: oneDomain(args, usage) }),
    },
    "domains list": {
      usage: DOMAINS_LIST_USAGE,
      parse: (args, usage) => {
        const { positionals } = parseStrict(args, {}, usage);
        if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, usage);
        return { kind: "domains-list" };
      },
    },
    "domains allow": {
      usage: DOMAINS_ALLOW_USAGE,
      parse: (args, usage) => ({ kind: "domains-allow", domain: oneDomain(args, usage) }),
    },
    "domains disallow": {
      usage: DOMAINS_ALLOW_USAGE,
      parse: (args, usage) => ({ kind: "domains-disallow", domain: oneDomain(args, usage) }),
    },
  };
