import { type Command, parseStrict } from "./parse-command.ts";
import { UsageError } from "./usage.ts";

/** The moderation actions of `gannet accounts`, as the admin API's. */
export const ACCOUNT_ACTION_NAMES = [
  "suspend",
  "unsuspend",
  "silence",
  "unsilence",
  "sensitive",
  "unsensitive",
] as const;
export type AccountActionName = (typeof ACCOUNT_ACTION_NAMES)[number];

/** `gannet accounts suspend|unsuspend|silence|unsilence|sensitive|unsensitive ACCOUNT`. */
export type AccountActionCommand = {
  kind: "accounts-action";
  action: AccountActionName;
  /** `username` (local) or `user@domain`. */
  account: string;
  text?: string;
  email: boolean;
};

const ACT = `ACCOUNT is a local USERNAME or a remote USER@DOMAIN. The action is written to the action log
(as done by the gannet command). A local account is told with a moderation_warning notification.
  --text TEXT  the warning shown to the user with the action
  --email      also mail the warning to the user (local accounts)
`;

const UNDO = `ACCOUNT is a local USERNAME or a remote USER@DOMAIN. The change is written to the action log.
`;

export const ACCOUNT_ACTION_USAGES: Record<AccountActionName, string> = {
  suspend: `Usage: gannet accounts suspend ACCOUNT [--text TEXT] [--email]

Suspends the account and prints OK. Nothing is deleted yet: the account disappears, its tokens
and sessions stop working, the servers of a local account's followers are told; "gannet accounts
unsuspend" gives everything back. After SUSPENSION_PURGE_DELAY_DAYS its data is deleted for good.
${ACT}`,
  unsuspend: `Usage: gannet accounts unsuspend ACCOUNT

Lifts a suspension made on this server and prints OK: the account has everything back.
${UNDO}`,
  silence: `Usage: gannet accounts silence ACCOUNT [--text TEXT] [--email]

Limits the account (Mastodon's silence) and prints OK: its posts stay out of public timelines
and the notifications of people who do not follow it.
${ACT}`,
  unsilence: `Usage: gannet accounts unsilence ACCOUNT

Lifts the limit and prints OK.
${UNDO}`,
  sensitive: `Usage: gannet accounts sensitive ACCOUNT [--text TEXT] [--email]

Marks the account's media sensitive from now on and prints OK.
${ACT}`,
  unsensitive: `Usage: gannet accounts unsensitive ACCOUNT

Stops marking the account's media sensitive and prints OK.
${UNDO}`,
};

function parseAction(action: AccountActionName) {
  return (args: string[], usage: string): Command => {
    const undo = action.startsWith("un");
    const { values, positionals } = parseStrict(
      args,
      undo ? {} : { text: { type: "string" }, email: { type: "boolean" } },
      usage,
    );
    if (positionals.length === 0) throw new UsageError("missing ACCOUNT", usage);
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`, usage);
    const account = (positionals[0] as string).trim();
    if (account === "" || account === "@") throw new UsageError("ACCOUNT must not be empty", usage);
    return {
      kind: "accounts-action",
      action,
      account,
      text: typeof values.text === "string" && values.text !== "" ? values.text : undefined,
      email: values.email === true,
    };
  };
}

export const ACCOUNT_ACTION_SUBCOMMANDS: Record<
  string,
  { usage: string; parse: (args: string[], usage: string) => Command }
> = Object.fromEntries(
  ACCOUNT_ACTION_NAMES.map((a) => [`accounts ${a}`, { usage: ACCOUNT_ACTION_USAGES[a], parse: parseAction(a) }]),
);
