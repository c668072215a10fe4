/** Exit statuses of the `gannet` command: scripts can tell a typo from a failure. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Bad arguments: the message and a usage text go to stderr, and the command exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
  readonly usage: string;
  constructor(message: string, usage: string = USAGE) {
    super(message);
    this.usage = usage;
  }
}

/** Something went wrong with good arguments (no such user, taken e-mail): one line, exit 1. */
export class CommandError extends Error {
  override name = "CommandError";
}

export const ACCOUNTS_CREATE_USAGE = `Usage: gannet accounts create USERNAME --email EMAIL [--password PASSWORD] [--role ROLE]
                               [--confirmed] [--approved]

Creates a local account and prints OK and its new password (unless --password was given).
  --email EMAIL        the account's e-mail address (required)
  --password PASSWORD  use this password instead of a generated one
  --role ROLE          a role such as Owner, Admin or Moderator
  --confirmed          mark the e-mail address confirmed
  --approved           approve the account (accounts are approved anyway when REGISTRATIONS_MODE=open)
`;

export const ACCOUNTS_MODIFY_USAGE = `Usage: gannet accounts modify USERNAME [--role ROLE | --remove-role] [--email EMAIL] [--confirm]
                               [--approve] [--disable | --enable] [--reset-password]

Changes a local account and prints OK (and the new password with --reset-password).
  --role ROLE       give the account this role
  --remove-role     put the account back in the everyone role
  --email EMAIL     change the e-mail address
  --confirm         mark the e-mail address confirmed
  --approve         approve a pending account
  --disable         stop the account from signing in or using its tokens
  --enable          undo --disable
  --reset-password  replace the password with a generated one
`;

export const ACCOUNTS_DELETE_USAGE = `Usage: gannet accounts delete USERNAME

Deletes a local account: its login and tokens go, its profile is emptied, and its username stays
taken so that nobody can impersonate it later.
`;

export const ACCOUNTS_LIST_USAGE = `Usage: gannet accounts list

Prints one tab-separated line per local account after a header line:
username, email, role, confirmed, approved, disabled (yes or no).
`;

export const TOKENS_CREATE_USAGE = `Usage: gannet tokens create USERNAME [--scopes "read write follow push"]

Issues an access token for the account and prints only the token, for scripts and bots.
  --scopes SCOPES  space-separated OAuth scopes (default: "read write follow push")
`;

export const USAGE = `Usage: gannet COMMAND [options]

Commands:
  accounts create USERNAME --email EMAIL [--password P] [--role ROLE] [--confirmed] [--approved]
  accounts modify USERNAME [--role ROLE | --remove-role] [--email EMAIL] [--confirm] [--approve]
                           [--disable | --enable] [--reset-password]
  accounts delete USERNAME
  accounts list
  tokens create USERNAME [--scopes "read write follow push"]
  help [COMMAND]

Run "gannet help accounts create" (or any command with --help) for its options.
Settings are read from the environment and from a .env file in the working directory, as the
server reads them (DATA_DIR, DATABASE_URL, ...).

Exit status: 0 on success, 1 when the command failed, 2 for bad arguments or settings.
`;

export const ACCOUNTS_USAGE = `Usage: gannet accounts create USERNAME --email EMAIL [--password P] [--role ROLE] [--confirmed] [--approved]
       gannet accounts modify USERNAME [--role ROLE | --remove-role] [--email EMAIL] [--confirm] [--approve]
                                       [--disable | --enable] [--reset-password]
       gannet accounts delete USERNAME
       gannet accounts list

Run "gannet help accounts create" (or modify, delete, list) for the options.
`;

export const TOKENS_USAGE = TOKENS_CREATE_USAGE;
