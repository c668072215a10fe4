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
                               [--disable-2fa] [--trends-emails on|off]

Changes a local account and prints OK (and the new password with --reset-password).
  --role ROLE       give the account this role
  --remove-role     put the account back in the everyone role
  --email EMAIL     change the e-mail address
  --confirm         mark the e-mail address confirmed
  --approve         approve a pending account
  --disable         stop the account from signing in or using its tokens
  --enable          undo --disable
  --reset-password  replace the password with a generated one
  --disable-2fa     turn two-factor sign-in off (authenticator app, recovery codes, security keys)
  --trends-emails on|off
                    whether this staff member gets the e-mail listing new trends that wait
                    for review (on by default)
`;

export const ACCOUNTS_DELETE_USAGE = `Usage: gannet accounts delete USERNAME

Deletes a local account: its login and tokens go, its profile is emptied, and its username stays
taken so that nobody can impersonate it later.
`;

export const ACCOUNTS_LIST_USAGE = `Usage: gannet accounts list

Prints one tab-separated line per local account after a header line:
username, email, role, confirmed, approved, disabled (yes or no).
`;

export const ACCOUNTS_ALIASES_USAGE = `Usage: gannet accounts aliases USERNAME [--add USER@DOMAIN]... [--remove USER@DOMAIN]...

Lists, adds or removes the account's aliases (its alsoKnownAs): the accounts it may be moved
from. An account elsewhere can move here only once this one lists it. Prints the aliases, one
actor URI per line. Remote accounts are looked up through WebFinger.
  --add USER@DOMAIN     add an alias (repeatable)
  --remove USER@DOMAIN  remove an alias (repeatable; an actor URI works too)
`;

export const ACCOUNTS_MOVE_USAGE = `Usage: gannet accounts move USERNAME --to USER@DOMAIN

Moves the account to another one, which must list this account among its aliases: the account
is marked as moved, its remote followers' servers are sent a Move (they follow the new account),
and its local followers follow the new account. Prints OK and the new account's actor URI.
  --to USER@DOMAIN  the account it moves to (looked up through WebFinger)
`;

export const ACCOUNTS_APPROVE_USAGE = `Usage: gannet accounts approve USERNAME

Approves a sign-up waiting for approval (as the admin API's approve does): once its e-mail address
is confirmed the user can sign in, staff are notified of the new account and the user gets a welcome
mail. Written to the action log. Fails for an account that is not waiting for approval.
`;

export const ACCOUNTS_REJECT_USAGE = `Usage: gannet accounts reject USERNAME

Rejects a sign-up waiting for approval (as the admin API's reject does): the user and the account
are deleted for good, so the username and the e-mail address can be used again. Written to the
action log. Fails for an account that is not waiting for approval.
`;

export const TOKENS_CREATE_USAGE = `Usage: gannet tokens create USERNAME [--scopes "read write follow push"]

Issues an access token for the account and prints only the token, for scripts and bots.
  --scopes SCOPES  space-separated OAuth scopes (default: "read write follow push")
`;

const ROLE_PERMISSIONS = `Permissions: administrator (grants all the others), devops, view_audit_log, view_dashboard,
  manage_reports, manage_federation, manage_settings, manage_blocks, manage_taxonomies,
  manage_appeals, manage_users, manage_invites, manage_rules, manage_announcements,
  manage_custom_emojis, manage_webhooks, invite_users, manage_roles, manage_user_access,
  delete_user_data, view_feeds.
A running server sees a role's changes within 10 seconds.
`;

export const ROLES_LIST_USAGE = `Usage: gannet roles list

Prints one tab-separated line per role, lowest position first, after a header line: id, name,
position, highlighted (yes or no), color, permissions (comma-separated names).
The everyone role's permissions are those of every user, whatever their role.
`;

export const ROLES_CREATE_USAGE = `Usage: gannet roles create NAME [--permissions P,P,...] [--position N] [--color #RRGGBB]
                            [--highlighted] [--allow-administrator]

Creates a role and prints OK; give it with "gannet accounts modify USERNAME --role NAME".
Names are unique, whatever their case.
  --permissions P,P,...  what the role may do, comma-separated (default: only what everyone may)
  --position N           where the role ranks (default 0; Moderator 10, Admin 100, Owner 1000)
  --color #RRGGBB        the color of the role's badge
  --highlighted          show the role as a badge on its members' profiles
  --allow-administrator  needed to grant administrator

${ROLE_PERMISSIONS}`;

export const ROLES_MODIFY_USAGE = `Usage: gannet roles modify NAME [--name NEW] [--permissions P,P,...] [--add-permission P]
                            [--remove-permission P] [--position N] [--color #RRGGBB]
                            [--highlighted | --not-highlighted] [--allow-administrator]

Changes a role and prints OK. The everyone role keeps its name and position.
  --name NEW               rename the role
  --permissions P,P,...    replace the role's permissions ("" for none)
  --add-permission P       grant a permission (repeatable; comma-separated names work too)
  --remove-permission P    take a permission away (repeatable)
  --position N             move the role
  --color #RRGGBB          change the badge color ("" for none)
  --highlighted            show the role as a badge on its members' profiles
  --not-highlighted        stop showing it
  --allow-administrator    needed to grant administrator

${ROLE_PERMISSIONS}`;

export const ROLES_DELETE_USAGE = `Usage: gannet roles delete NAME

Deletes a role and prints OK; its members go back to the everyone role. The everyone and Owner
roles cannot be deleted.
`;

export const JOBS_LIST_USAGE = `Usage: gannet jobs list

Prints the background job queue's state, as tab-separated sections each under a header line:
the number of jobs by name and state (waiting: due; delayed: waiting for their time or a retry;
running; dead: out of attempts, kept for inspection), then the due job that has waited longest,
then the jobs whose last run failed (retrying or dead), most recent first, with their error.
`;

export const JOBS_USAGE = JOBS_LIST_USAGE;

const EMOJI_RULES = `A shortcode is two or more letters, digits or underscores; case matters (:Blob: and :blob:
are two emojis). Images are PNG, GIF or WebP (animated ones too), at most 256 KiB each.
`;

export const EMOJI_ADD_USAGE = `Usage: gannet emoji add SHORTCODE FILE [--category NAME] [--unlisted]

Adds a custom emoji from an image file and prints OK; posts and profiles then show :SHORTCODE:
as the image.
  --category NAME  group it under this name in clients' emoji pickers
  --unlisted       keep it out of the picker (GET /api/v1/custom_emojis); it still works in text

${EMOJI_RULES}`;

export const EMOJI_IMPORT_USAGE = `Usage: gannet emoji import DIR [--category NAME] [--unlisted]

Adds every .png, .gif and .webp file directly in DIR as a custom emoji named after the file
(blobcat.png becomes :blobcat:), then prints how many were imported, skipped (a name that is not
a shortcode, or a shortcode already taken) and failed (a bad image); each skip and failure is
explained on stderr. Exits 1 when any file failed.
  --category NAME  group them under this name in clients' emoji pickers
  --unlisted       keep them out of the picker

${EMOJI_RULES}`;

export const EMOJI_LIST_USAGE = `Usage: gannet emoji list

Prints one tab-separated line per local custom emoji after a header line: shortcode, category,
listed (shown in the picker: yes or no), disabled (yes or no), content type, size in bytes, URL.
`;

export const EMOJI_DELETE_USAGE = `Usage: gannet emoji delete SHORTCODE

Deletes a custom emoji and its image files and prints OK. Posts that use it show :SHORTCODE:
as text again.
`;

export const EMOJI_USAGE = `Usage: gannet emoji add SHORTCODE FILE [--category NAME] [--unlisted]
       gannet emoji import DIR [--category NAME] [--unlisted]
       gannet emoji list
       gannet emoji delete SHORTCODE

Run "gannet help emoji add" (or import, list, delete) for the details.
`;

export const USAGE = `Usage: gannet COMMAND [options]

Commands:
  accounts create USERNAME --email EMAIL [--password P] [--role ROLE] [--confirmed] [--approved]
  accounts modify USERNAME [--role ROLE | --remove-role] [--email EMAIL] [--confirm] [--approve]
                           [--disable | --enable] [--reset-password]
  accounts delete USERNAME
  accounts list
  accounts aliases USERNAME [--add USER@DOMAIN]... [--remove USER@DOMAIN]...
  accounts move USERNAME --to USER@DOMAIN
  accounts approve USERNAME
  accounts reject USERNAME
  accounts suspend|silence|sensitive ACCOUNT [--text TEXT] [--email]
  accounts unsuspend|unsilence|unsensitive ACCOUNT
  roles list
  roles create NAME [--permissions P,P,...] [--position N] [--color #RRGGBB] [--highlighted]
                    [--allow-administrator]
  roles modify NAME [--name NEW] [--permissions P,P,...] [--add-permission P]
                    [--remove-permission P] [--position N] [--color #RRGGBB]
                    [--highlighted | --not-highlighted] [--allow-administrator]
  roles delete NAME
  tokens create USERNAME [--scopes "read write follow push"]
  jobs list
  emoji add SHORTCODE FILE [--category NAME] [--unlisted]
  emoji import DIR [--category NAME] [--unlisted]
  emoji list
  emoji delete SHORTCODE
  announcements create --text TEXT [--starts-at TIME --ends-at TIME] [--all-day] [--draft]
  announcements list
  announcements publish ID | unpublish ID | delete ID
  domains block DOMAIN [--severity suspend|silence|noop] [--reject-media] [--reject-reports]
                       [--private-comment TEXT] [--public-comment TEXT] [--obfuscate]
  domains unblock DOMAIN
  domains list
  domains allow DOMAIN | disallow DOMAIN
  email-domain-blocks add DOMAIN... [--allow-with-approval] | remove DOMAIN... | list
  ip-blocks add IP... --severity sign_up_requires_approval|sign_up_block|no_access
                      [--comment TEXT] [--duration SECONDS]
  ip-blocks remove IP... | list
  canonical-email-blocks add EMAIL... | add --account USERNAME | remove EMAIL|HASH... | list
  log [--limit N] [--account USERNAME] [--target-type TYPE]   (the action log, newest first)
  backup DIR|FILE.tar               (the database, media and secret key; the server may run)
  restore DIR|FILE.tar [--force]    (into an empty DATA_DIR or database; the server stopped)
  doctor [--url BASE_URL]           (checks settings, database, Redis, media, the public URL)
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
       gannet accounts aliases USERNAME [--add USER@DOMAIN]... [--remove USER@DOMAIN]...
       gannet accounts move USERNAME --to USER@DOMAIN
       gannet accounts approve USERNAME
       gannet accounts reject USERNAME
       gannet accounts suspend|silence|sensitive ACCOUNT [--text TEXT] [--email]
       gannet accounts unsuspend|unsilence|unsensitive ACCOUNT

Run "gannet help accounts create" (or modify, delete, list, aliases, move, approve, reject, suspend, ...) for the options.
`;

export const TOKENS_USAGE = TOKENS_CREATE_USAGE;

export const ROLES_USAGE = `Usage: gannet roles list
       gannet roles create NAME [--permissions P,P,...] [--position N] [--color #RRGGBB] [--highlighted]
                                [--allow-administrator]
       gannet roles modify NAME [--name NEW] [--permissions P,P,...] [--add-permission P]
                                [--remove-permission P] [--position N] [--color #RRGGBB]
                                [--highlighted | --not-highlighted] [--allow-administrator]
       gannet roles delete NAME

Run "gannet help roles create" (or list, modify, delete) for the options and permission names.
`;
