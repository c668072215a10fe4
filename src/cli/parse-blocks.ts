import { normalizeDomain } from "../lib/domains.ts";
import { canonicalCidr } from "../lib/net/cidr.ts";
import { type Command, parseStrict } from "./parse-command.ts";
import { UsageError } from "./usage.ts";

/** `gannet email-domain-blocks|ip-blocks|canonical-email-blocks ...`: sign-up and access blocks. */
export type BlocksCommand =
  | { kind: "email-domain-blocks-add"; domains: string[]; allowWithApproval: boolean }
  | { kind: "email-domain-blocks-remove"; domains: string[] }
  | { kind: "email-domain-blocks-list" }
  | {
      kind: "ip-blocks-add";
      ips: string[];
      severity: "sign_up_requires_approval" | "sign_up_block" | "no_access";
      comment: string;
      duration: number | null;
    }
  | { kind: "ip-blocks-remove"; ips: string[] }
  | { kind: "ip-blocks-list" }
  | { kind: "canonical-email-blocks-add"; emails: string[]; account?: string }
  | { kind: "canonical-email-blocks-remove"; emails: string[] }
  | { kind: "canonical-email-blocks-list" };

export const EMAIL_DOMAIN_BLOCKS_ADD_USAGE = `Usage: gannet email-domain-blocks add DOMAIN... [--allow-with-approval]

Refuses sign-ups (and e-mail changes) with an address on DOMAIN or any of its subdomains, with
the error Mastodon gives. With --allow-with-approval such sign-ups are accepted but wait in the
approval queue. Prints one line per domain ("Added" or "already blocked").
`;

export const EMAIL_DOMAIN_BLOCKS_REMOVE_USAGE = `Usage: gannet email-domain-blocks remove DOMAIN...

Removes the block of exactly each DOMAIN. Prints "Removed DOMAIN" for each; fails (exit 1) on a
domain that is not blocked.
`;

export const EMAIL_DOMAIN_BLOCKS_LIST_USAGE = `Usage: gannet email-domain-blocks list

Prints one tab-separated line per blocked e-mail domain after a header line (domain, allow with
approval, created at).
`;

export const IP_BLOCKS_ADD_USAGE = `Usage: gannet ip-blocks add IP... --severity sign_up_requires_approval|sign_up_block|no_access
                             [--comment TEXT] [--duration SECONDS]

Blocks addresses or CIDR ranges (192.0.2.0/24, 2001:db8::/32):
  sign_up_requires_approval  sign-ups from the range wait in the approval queue
  sign_up_block              sign-ups from the range are refused
  no_access                  every request from the range is refused (403)
--duration makes the block expire after that many seconds. A running server sees the change at
once with REDIS_URL or DATABASE_URL, else within a minute. Prints one line per range.
`;

export const IP_BLOCKS_REMOVE_USAGE = `Usage: gannet ip-blocks remove IP...

Removes the block of exactly each address or range. Prints "Removed RANGE" for each; fails
(exit 1) on one that is not blocked.
`;

export const IP_BLOCKS_LIST_USAGE = `Usage: gannet ip-blocks list

Prints one tab-separated line per IP block still in force after a header line (ip, severity,
expires at, comment).
`;

export const CANONICAL_EMAIL_BLOCKS_ADD_USAGE = `Usage: gannet canonical-email-blocks add EMAIL...
       gannet canonical-email-blocks add --account USERNAME

Blocks sign-ups and e-mail changes to each address in any spelling of its canonical form (lower
case; dots and a +suffix dropped from the local part), or to the address of the local account
USERNAME. Prints one line per address with the hash stored.
`;

export const CANONICAL_EMAIL_BLOCKS_REMOVE_USAGE = `Usage: gannet canonical-email-blocks remove EMAIL|HASH...

Removes the blocks matching each address (in any spelling) or each 64-digit hash. Prints one line
per address; fails (exit 1) on one that no block matches.
`;

export const CANONICAL_EMAIL_BLOCKS_LIST_USAGE = `Usage: gannet canonical-email-blocks list

Prints one tab-separated line per block after a header line (id, canonical e-mail hash, the
account it was made for).
`;

export const EMAIL_DOMAIN_BLOCKS_USAGE = `Usage: gannet email-domain-blocks add DOMAIN... [--allow-with-approval]
       gannet email-domain-blocks remove DOMAIN...
       gannet email-domain-blocks list

Run "gannet help email-domain-blocks add" (or remove, list) for the details.
`;

export const IP_BLOCKS_USAGE = `Usage: gannet ip-blocks add IP... --severity sign_up_requires_approval|sign_up_block|no_access
                             [--comment TEXT] [--duration SECONDS]
       gannet ip-blocks remove IP...
       gannet ip-blocks list

Run "gannet help ip-blocks add" (or remove, list) for the details.
`;

export const CANONICAL_EMAIL_BLOCKS_USAGE = `Usage: gannet canonical-email-blocks add EMAIL... | --account USERNAME
       gannet canonical-email-blocks remove EMAIL|HASH...
       gannet canonical-email-blocks list

Run "gannet help canonical-email-blocks add" (or remove, list) for the details.
`;

const SEVERITIES = ["sign_up_requires_approval", "sign_up_block", "no_access"] as const;

function some(positionals: string[], what: string, usage: string): string[] {
  if (positionals.length === 0) throw new UsageError(`missing ${what}`, usage);
  return positionals;
}

function none(args: string[], usage: string): void {
  const { positionals } = parseStrict(args, {}, usage);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, usage);
}

/** An e-mail domain as Mastodon normalises it (lower case, punycode). */
function domainArg(value: string, usage: string): string {
  const domain = normalizeDomain(value);
  if (domain === null) throw new UsageError(`"${value}" is not a domain`, usage);
  return domain;
}

function range(value: string, usage: string): string {
  const cidr = canonicalCidr(value);
  if (cidr === undefined) throw new UsageError(`"${value}" is not an IP address or CIDR range`, usage);
  return cidr;
}

function parseIpAdd(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(
    args,
    { severity: { type: "string" }, comment: { type: "string" }, duration: { type: "string" } },
    usage,
  );
  const ips = some(positionals, "IP", usage).map((ip) => range(ip, usage));
  const severity = values.severity as string | undefined;
  if (severity === undefined) throw new UsageError("missing --severity", usage);
  if (!(SEVERITIES as readonly string[]).includes(severity)) {
    throw new UsageError(`--severity must be ${SEVERITIES.join(", ")}; got "${severity}"`, usage);
  }
  const durationText = values.duration as string | undefined;
  if (durationText !== undefined && !/^\d{1,10}$/.test(durationText)) {
    throw new UsageError(`--duration must be a number of seconds, got "${durationText}"`, usage);
  }
  return {
    kind: "ip-blocks-add",
    ips,
    severity: severity as (typeof SEVERITIES)[number],
    comment: (values.comment as string | undefined) ?? "",
    duration: durationText === undefined || Number(durationText) === 0 ? null : Number(durationText),
  };
}

function parseCanonicalAdd(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(args, { account: { type: "string" } }, usage);
  const account = values.account as string | undefined;
  if (account !== undefined) {
    if (positionals.length > 0) throw new UsageError("give EMAIL or --account, not both", usage);
    if (account === "") throw new UsageError("--account needs a USERNAME", usage);
    return { kind: "canonical-email-blocks-add", emails: [], account };
  }
  const emails = some(positionals, "EMAIL", usage);
  for (const e of emails) if (!e.includes("@")) throw new UsageError(`"${e}" is not an e-mail address`, usage);
  return { kind: "canonical-email-blocks-add", emails };
}

type Sub = { usage: string; parse: (args: string[], usage: string) => Command };

export const BLOCKS_SUBCOMMANDS: Record<string, Sub> = {
  "email-domain-blocks add": {
    usage: EMAIL_DOMAIN_BLOCKS_ADD_USAGE,
    parse: (args, usage) => {
      const { values, positionals } = parseStrict(args, { "allow-with-approval": { type: "boolean" } }, usage);
      return {
        kind: "email-domain-blocks-add",
        domains: some(positionals, "DOMAIN", usage).map((d) => domainArg(d, usage)),
        allowWithApproval: values["allow-with-approval"] === true,
      };
    },
  },
  "email-domain-blocks remove": {
    usage: EMAIL_DOMAIN_BLOCKS_REMOVE_USAGE,
    parse: (args, usage) => ({
      kind: "email-domain-blocks-remove",
      domains: some(parseStrict(args, {}, usage).positionals, "DOMAIN", usage).map((d) => domainArg(d, usage)),
    }),
  },
  "email-domain-blocks list": {
    usage: EMAIL_DOMAIN_BLOCKS_LIST_USAGE,
    parse: (args, usage) => {
      none(args, usage);
      return { kind: "email-domain-blocks-list" };
    },
  },
  "ip-blocks add": { usage: IP_BLOCKS_ADD_USAGE, parse: parseIpAdd },
  "ip-blocks remove": {
    usage: IP_BLOCKS_REMOVE_USAGE,
    parse: (args, usage) => ({
      kind: "ip-blocks-remove",
      ips: some(parseStrict(args, {}, usage).positionals, "IP", usage).map((ip) => range(ip, usage)),
    }),
  },
  "ip-blocks list": {
    usage: IP_BLOCKS_LIST_USAGE,
    parse: (args, usage) => {
      none(args, usage);
      return { kind: "ip-blocks-list" };
    },
  },
  "canonical-email-blocks add": { usage: CANONICAL_EMAIL_BLOCKS_ADD_USAGE, parse: parseCanonicalAdd },
  "canonical-email-blocks remove": {
    usage: CANONICAL_EMAIL_BLOCKS_REMOVE_USAGE,
    parse: (args, usage) => ({
      kind: "canonical-email-blocks-remove",
      emails: some(parseStrict(args, {}, usage).positionals, "EMAIL or HASH", usage),
    }),
  },
  "canonical-email-blocks list": {
    usage: CANONICAL_EMAIL_BLOCKS_LIST_USAGE,
    parse: (args, usage) => {
      none(args, usage);
      return { kind: "canonical-email-blocks-list" };
    },
  },
};

export const BLOCKS_GROUP_USAGE: Record<string, string> = {
  "email-domain-blocks": EMAIL_DOMAIN_BLOCKS_USAGE,
  "ip-blocks": IP_BLOCKS_USAGE,
  "canonical-email-blocks": CANONICAL_EMAIL_BLOCKS_USAGE,
};
