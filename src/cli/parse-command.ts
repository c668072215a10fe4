import { type ParseArgsConfig, parseArgs } from "node:util";
import { isKnownScope, parseScopes } from "../lib/scopes.ts";
import { shortcodeProblem } from "../lib/text/shortcodes.ts";
import type { AccountChanges } from "../services/admin/modify-account.ts";
import { ACCOUNT_ACTION_SUBCOMMANDS, type AccountActionCommand } from "./parse-account-actions.ts";
import { ANNOUNCEMENTS_SUBCOMMANDS, ANNOUNCEMENTS_USAGE, type AnnouncementsCommand } from "./parse-announcements.ts";
import { BLOCKS_GROUP_USAGE, BLOCKS_SUBCOMMANDS, type BlocksCommand } from "./parse-blocks.ts";
import { DOMAINS_SUBCOMMANDS, DOMAINS_USAGE, type DomainsCommand } from "./parse-domains.ts";
import { LOG_USAGE, type LogCommand, parseLog } from "./parse-log.ts";
import { OPERATIONS_COMMANDS, type OperationsCommand } from "./parse-operations.ts";
import { ROLES_SUBCOMMANDS, type RolesCommand } from "./parse-roles.ts";
import {
  ACCOUNTS_ALIASES_USAGE,
  ACCOUNTS_APPROVE_USAGE,
  ACCOUNTS_CREATE_USAGE,
  ACCOUNTS_DELETE_USAGE,
  ACCOUNTS_LIST_USAGE,
  ACCOUNTS_MODIFY_USAGE,
  ACCOUNTS_MOVE_USAGE,
  ACCOUNTS_REJECT_USAGE,
  ACCOUNTS_USAGE,
  EMOJI_ADD_USAGE,
  EMOJI_DELETE_USAGE,
  EMOJI_IMPORT_USAGE,
  EMOJI_LIST_USAGE,
  EMOJI_USAGE,
  JOBS_LIST_USAGE,
  JOBS_USAGE,
  ROLES_USAGE,
  TOKENS_CREATE_USAGE,
  TOKENS_USAGE,
  USAGE,
  UsageError,
} from "./usage.ts";

/** What the command line asks for, checked before any setting is read or database opened. */
export type Command =
  | { kind: "help"; text: string }
  | {
      kind: "accounts-create";
      username: string;
      email: string;
      password?: string;
      role?: string;
      confirmed: boolean;
      approved: boolean;
    }
  | { kind: "accounts-modify"; username: string; changes: AccountChanges }
  | { kind: "accounts-delete"; username: string }
  | { kind: "accounts-list" }
  | { kind: "accounts-aliases"; username: string; add: string[]; remove: string[] }
  | { kind: "accounts-move"; username: string; to: string }
  | { kind: "accounts-approve"; username: string }
  | { kind: "accounts-reject"; username: string }
  | RolesCommand
  | { kind: "tokens-create"; username: string; scopes: string[] }
  | { kind: "jobs-list" }
  | { kind: "emoji-add"; shortcode: string; file: string; category?: string; unlisted: boolean }
  | { kind: "emoji-import"; dir: string; category?: string; unlisted: boolean }
  | { kind: "emoji-list" }
  | { kind: "emoji-delete"; shortcode: string }
  | AnnouncementsCommand
  | DomainsCommand
  | BlocksCommand
  | LogCommand
  | AccountActionCommand
  | OperationsCommand;

export const DEFAULT_TOKEN_SCOPES = "read write follow push";

type Options = NonNullable<ParseArgsConfig["options"]>;

const HELP: Options = { help: { type: "boolean", short: "h" } };

const SUBCOMMAND_USAGE: Record<string, string> = {
  "accounts create": ACCOUNTS_CREATE_USAGE,
  "accounts modify": ACCOUNTS_MODIFY_USAGE,
  "accounts delete": ACCOUNTS_DELETE_USAGE,
  "accounts list": ACCOUNTS_LIST_USAGE,
  "accounts aliases": ACCOUNTS_ALIASES_USAGE,
  "accounts move": ACCOUNTS_MOVE_USAGE,
  "accounts approve": ACCOUNTS_APPROVE_USAGE,
  "accounts reject": ACCOUNTS_REJECT_USAGE,
  "tokens create": TOKENS_CREATE_USAGE,
  "jobs list": JOBS_LIST_USAGE,
  "emoji add": EMOJI_ADD_USAGE,
  "emoji import": EMOJI_IMPORT_USAGE,
  "emoji list": EMOJI_LIST_USAGE,
  "emoji delete": EMOJI_DELETE_USAGE,
  ...Object.fromEntries(Object.entries(ROLES_SUBCOMMANDS).map(([k, v]) => [k, v.usage])),
  ...Object.fromEntries(Object.entries(ANNOUNCEMENTS_SUBCOMMANDS).map(([k, v]) => [k, v.usage])),
  ...Object.fromEntries(Object.entries(DOMAINS_SUBCOMMANDS).map(([k, v]) => [k, v.usage])),
  ...Object.fromEntries(Object.entries(BLOCKS_SUBCOMMANDS).map(([k, v]) => [k, v.usage])),
  ...Object.fromEntries(Object.entries(ACCOUNT_ACTION_SUBCOMMANDS).map(([k, v]) => [k, v.usage])),
};

const GROUP_USAGE: Record<string, string> = {
  accounts: ACCOUNTS_USAGE,
  roles: ROLES_USAGE,
  tokens: TOKENS_USAGE,
  jobs: JOBS_USAGE,
  emoji: EMOJI_USAGE,
  announcements: ANNOUNCEMENTS_USAGE,
  domains: DOMAINS_USAGE,
  ...BLOCKS_GROUP_USAGE,
  log: LOG_USAGE,
  ...Object.fromEntries(Object.entries(OPERATIONS_COMMANDS).map(([k, v]) => [k, v.usage])),
};

/** Strict parsing of one subcommand's arguments; parseArgs' own messages name the bad option. */
export function parseStrict(args: string[], options: Options, usage: string) {
  let parsed: ReturnType<typeof parseArgs<{ options: Options; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args, options: { ...HELP, ...options }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e), usage);
  }
  if (parsed.values.help) throw new HelpRequest(usage);
  return parsed;
}

/** `--help` after a subcommand: answered with that subcommand's usage, whatever else was given. */
export class HelpRequest {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function oneUsername(positionals: string[], usage: string): string {
  if (positionals.length === 0) throw new UsageError("missing USERNAME", usage);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`, usage);
  return positionals[0];
}

/** Turns `process.argv.slice(2)` into a command; throws UsageError for anything malformed. */
export function parseCommand(argv: readonly string[]): Command {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError("missing command");
  if (group === "help" || group === "--help" || group === "-h") {
    const topic = argv.slice(1).join(" ");
    if (topic === "") return { kind: "help", text: USAGE };
    const text = SUBCOMMAND_USAGE[topic] ?? GROUP_USAGE[topic];
    if (!text) throw new UsageError(`no help for "${topic}"`);
    return { kind: "help", text };
  }
  const single = group === "log" ? { parse: parseLog } : OPERATIONS_COMMANDS[group];
  if (single) {
    try {
      return single.parse(argv.slice(1));
    } catch (e) {
      if (e instanceof HelpRequest) return { kind: "help", text: e.text };
      throw e;
    }
  }
  const groupUsage = GROUP_USAGE[group];
  if (!groupUsage) throw new UsageError(`unknown command "${group}"`);
  if (action === undefined) throw new UsageError(`missing ${group} subcommand`, groupUsage);
  if (action === "--help" || action === "-h") return { kind: "help", text: groupUsage };
  const usage = SUBCOMMAND_USAGE[`${group} ${action}`];
  if (!usage) throw new UsageError(`unknown command "${group} ${action}"`, groupUsage);
  const parsers: Record<string, (args: string[], usage: string) => Command> = {
    "accounts create": parseAccountsCreate,
    "accounts modify": parseAccountsModify,
    "accounts delete": parseAccountsDelete,
    "accounts list": parseAccountsList,
    "accounts aliases": parseAccountsAliases,
    "accounts move": parseAccountsMove,
    "accounts approve": (args, usage) => ({
      kind: "accounts-approve",
      username: oneUsername(parseStrict(args, {}, usage).positionals, usage),
    }),
    "accounts reject": (args, usage) => ({
      kind: "accounts-reject",
      username: oneUsername(parseStrict(args, {}, usage).positionals, usage),
    }),
    "tokens create": parseTokensCreate,
    "jobs list": parseJobsList,
    "emoji add": parseEmojiAdd,
    "emoji import": parseEmojiImport,
    "emoji list": parseEmojiList,
    "emoji delete": parseEmojiDelete,
    ...Object.fromEntries(Object.entries(ROLES_SUBCOMMANDS).map(([k, v]) => [k, v.parse])),
    ...Object.fromEntries(Object.entries(ANNOUNCEMENTS_SUBCOMMANDS).map(([k, v]) => [k, v.parse])),
    ...Object.fromEntries(Object.entries(DOMAINS_SUBCOMMANDS).map(([k, v]) => [k, v.parse])),
    ...Object.fromEntries(Object.entries(BLOCKS_SUBCOMMANDS).map(([k, v]) => [k, v.parse])),
    ...Object.fromEntries(Object.entries(ACCOUNT_ACTION_SUBCOMMANDS).map(([k, v]) => [k, v.parse])),
  };
  try {
    return parsers[`${group} ${action}`](rest, usage);
  } catch (e) {
    if (e instanceof HelpRequest) return { kind: "help", text: e.text };
    throw e;
  }
}

function parseAccountsCreate(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(
    args,
    {
      email: { type: "string" },
      password: { type: "string" },
      role: { type: "string" },
      confirmed: { type: "boolean" },
      approved: { type: "boolean" },
      // tootctl spells it --approve.
      approve: { type: "boolean" },
    },
    usage,
  );
  const username = oneUsername(positionals, usage);
  if (typeof values.email !== "string" || values.email === "") throw new UsageError("--email is required", usage);
  return {
    kind: "accounts-create",
    username,
    email: values.email,
    password: values.password as string | undefined,
    role: values.role as string | undefined,
    confirmed: values.confirmed === true,
    approved: values.approved === true || values.approve === true,
  };
}

function parseAccountsModify(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(
    args,
    {
      role: { type: "string" },
      "remove-role": { type: "boolean" },
      email: { type: "string" },
      confirm: { type: "boolean" },
      approve: { type: "boolean" },
      disable: { type: "boolean" },
      enable: { type: "boolean" },
      "reset-password": { type: "boolean" },
      "disable-2fa": { type: "boolean" },
      "trends-emails": { type: "string" },
    },
    usage,
  );
  const username = oneUsername(positionals, usage);
  const trendsEmails = values["trends-emails"];
  if (trendsEmails !== undefined && trendsEmails !== "on" && trendsEmails !== "off") {
    throw new UsageError("--trends-emails takes on or off", usage);
  }
  if (values.disable && values.enable) throw new UsageError("--disable and --enable cannot go together", usage);
  if (values.role !== undefined && values["remove-role"]) {
    throw new UsageError("--role and --remove-role cannot go together", usage);
  }
  if (values.role === "") throw new UsageError("--role needs a role name", usage);
  if (values.email === "") throw new UsageError("--email needs an address", usage);
  const changes: AccountChanges = {};
  if (typeof values.role === "string") changes.role = values.role;
  if (values["remove-role"]) changes.role = null;
  if (typeof values.email === "string") changes.email = values.email;
  if (values.confirm) changes.confirm = true;
  if (values.approve) changes.approve = true;
  if (values.disable) changes.disabled = true;
  if (values.enable) changes.disabled = false;
  if (values["reset-password"]) changes.resetPassword = true;
  if (values["disable-2fa"]) changes.disableTwoFactor = true;
  if (trendsEmails !== undefined) changes.trendsEmails = trendsEmails === "on";
  return { kind: "accounts-modify", username, changes };
}

function parseAccountsDelete(args: string[], usage: string): Command {
  const { positionals } = parseStrict(args, {}, usage);
  return { kind: "accounts-delete", username: oneUsername(positionals, usage) };
}

function parseAccountsAliases(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(
    args,
    { add: { type: "string", multiple: true }, remove: { type: "string", multiple: true } },
    usage,
  );
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const add = list(values.add);
  const remove = list(values.remove);
  if ([...add, ...remove].some((a) => a.trim() === "")) throw new UsageError("an alias cannot be empty", usage);
  return { kind: "accounts-aliases", username: oneUsername(positionals, usage), add, remove };
}

function parseAccountsMove(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(args, { to: { type: "string" } }, usage);
  const username = oneUsername(positionals, usage);
  if (typeof values.to !== "string" || values.to.trim() === "") throw new UsageError("--to is required", usage);
  return { kind: "accounts-move", username, to: values.to.trim() };
}

function parseAccountsList(args: string[], usage: string): Command {
  const { positionals } = parseStrict(args, {}, usage);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, usage);
  return { kind: "accounts-list" };
}

function parseJobsList(args: string[], usage: string): Command {
  const { positionals } = parseStrict(args, {}, usage);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, usage);
  return { kind: "jobs-list" };
}

const EMOJI_OPTIONS: Options = { category: { type: "string" }, unlisted: { type: "boolean" } };

/** The positionals named in `names`, exactly that many. */
function positionalsAs(positionals: string[], names: string[], usage: string): string[] {
  if (positionals.length < names.length) throw new UsageError(`missing ${names[positionals.length]}`, usage);
  if (positionals.length > names.length) {
    throw new UsageError(`unexpected argument "${positionals[names.length]}"`, usage);
  }
  for (const [i, p] of positionals.entries()) {
    if (p === "") throw new UsageError(`${names[i]} must not be empty`, usage);
  }
  return positionals;
}

function emojiShortcode(value: string, usage: string): string {
  const problem = shortcodeProblem(value);
  if (problem) throw new UsageError(`SHORTCODE "${value}": ${problem.toLowerCase()}`, usage);
  return value;
}

function emojiCategory(value: unknown, usage: string): string | undefined {
  if (typeof value !== "string") return undefined;
  if (value.trim() === "") throw new UsageError("--category needs a name", usage);
  return value.trim();
}

function parseEmojiAdd(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(args, EMOJI_OPTIONS, usage);
  const [shortcode, file] = positionalsAs(positionals, ["SHORTCODE", "FILE"], usage) as [string, string];
  return {
    kind: "emoji-add",
    shortcode: emojiShortcode(shortcode, usage),
    file,
    category: emojiCategory(values.category, usage),
    unlisted: values.unlisted === true,
  };
}

function parseEmojiImport(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(args, EMOJI_OPTIONS, usage);
  const [dir] = positionalsAs(positionals, ["DIR"], usage) as [string];
  return {
    kind: "emoji-import",
    dir,
    category: emojiCategory(values.category, usage),
    unlisted: values.unlisted === true,
  };
}

function parseEmojiList(args: string[], usage: string): Command {
  const { positionals } = parseStrict(args, {}, usage);
  positionalsAs(positionals, [], usage);
  return { kind: "emoji-list" };
}

function parseEmojiDelete(args: string[], usage: string): Command {
  const { positionals } = parseStrict(args, {}, usage);
  const [shortcode] = positionalsAs(positionals, ["SHORTCODE"], usage) as [string];
  return { kind: "emoji-delete", shortcode };
}

function parseTokensCreate(args: string[], usage: string): Command {
  const { values, positionals } = parseStrict(args, { scopes: { type: "string" } }, usage);
  const username = oneUsername(positionals, usage);
  const scopes = parseScopes((values.scopes as string | undefined) ?? DEFAULT_TOKEN_SCOPES);
  if (scopes.length === 0) throw new UsageError("--scopes needs at least one scope", usage);
  const unknown = scopes.filter((s) => !isKnownScope(s));
  if (unknown.length > 0)
    throw new UsageError(`unknown scope${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`, usage);
  return { kind: "tokens-create", username, scopes };
}
