import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User } from "../../db/repositories/users.ts";
import { randomToken, sha256 } from "../../lib/crypto.ts";
import { isValidEmail } from "../../lib/email.ts";
import { ApiError } from "../../lib/errors.ts";
import { passwords } from "../../lib/passwords.ts";
import { logAction, type Moderator } from "../moderation/action-log.ts";

export const USERNAME_RE = /^[a-z0-9_]+$/i;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;

/** Names that would be confusing or dangerous to hand out (Mastodon reserves similar ones). */
const RESERVED = new Set([
  "admin",
  "administrator",
  "root",
  "webmaster",
  "hostmaster",
  "postmaster",
  "support",
  "help",
  "mod",
  "moderator",
  "moderators",
  "staff",
  "security",
  "abuse",
  "noreply",
  "no-reply",
  "system",
  "instance",
  "actor",
  "inbox",
  "outbox",
  "users",
  "api",
  "oauth",
  "auth",
  "settings",
  "about",
  "mastodon",
  "gannet",
  "localhost",
  "nodeinfo",
]);

export interface FieldError {
  error: string;
  description: string;
}

/** A 422 in Mastodon's registration format: `Validation failed: ...` plus `details`. */
export function registrationError(details: Record<string, FieldError[]>): ApiError {
  const parts = Object.entries(details).flatMap(([field, errs]) =>
    errs.map((e) => `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, " ")} ${e.description}`),
  );
  return new ApiError(422, `Validation failed: ${parts.join(", ")}`, { details });
}

export interface NewLocalAccount {
  username: string;
  email: string;
  password?: string;
  /** Role name (Owner, Admin, Moderator); the everyone role when absent. */
  role?: string;
  confirmed: boolean;
  approved: boolean;
  locale?: string;
  reason?: string | null;
  applicationId?: string | null;
  signUpIp?: string | null;
  /** Skip the reserved-name rule (the operator's CLI may take any free name). */
  allowReserved?: boolean;
  /** Who created it, when staff or the operator did (a sign-up leaves it out): written to the action log. */
  createdBy?: Moderator;
}

export interface CreatedLocalAccount {
  account: Account;
  user: User;
  password: string;
  /** Raw confirmation token to mail, when the account is unconfirmed. */
  confirmationToken?: string;
}

/** Checks a new username, e-mail and password; throws a registration-style 422 listing every problem. */
export async function checkNewAccount(ctx: AppContext, input: NewLocalAccount): Promise<void> {
  const details: Record<string, FieldError[]> = {};
  const add = (field: string, error: string, description: string) =>
    (details[field] ??= []).push({ error, description });
  const { username, email, password } = input;
  if (!username) add("username", "ERR_BLANK", "can't be blank");
  else if (username.length > USERNAME_MAX)
    add("username", "ERR_TOO_LONG", `is too long (maximum is ${USERNAME_MAX} characters)`);
  else if (!USERNAME_RE.test(username))
    add("username", "ERR_INVALID", "must contain only letters, numbers and underscores");
  else if (!input.allowReserved && RESERVED.has(username.toLowerCase())) add("username", "ERR_RESERVED", "is reserved");
  else if (await ctx.repos.accounts.getByUsername(username, null)) add("username", "ERR_TAKEN", "is already taken");
  if (!email) add("email", "ERR_BLANK", "can't be blank");
  else if (!isValidEmail(email)) add("email", "ERR_INVALID", "is invalid");
  else if (await ctx.repos.users.emailTaken(email)) add("email", "ERR_TAKEN", "is already taken");
  if (password !== undefined) {
    if (password.length < PASSWORD_MIN)
      add("password", "ERR_TOO_SHORT", `is too short (minimum is ${PASSWORD_MIN} characters)`);
    else if (password.length > PASSWORD_MAX)
      add("password", "ERR_TOO_LONG", `is too long (maximum is ${PASSWORD_MAX} characters)`);
  }
  if (Object.keys(details).length > 0) throw registrationError(details);
}

/** Creates a local account and its user in one transaction. */
export async function createLocalAccount(ctx: AppContext, input: NewLocalAccount): Promise<CreatedLocalAccount> {
  await checkNewAccount(ctx, input);
  let roleId = "-99";
  if (input.role) {
    const role = await ctx.repos.roles.getByName(input.role);
    if (!role) throw new ApiError(422, `Validation failed: Role ${input.role} does not exist`);
    roleId = role.id;
  }
  const password = input.password ?? randomToken(18);
  const encrypted = await passwords.hash(password, ctx.config.passwordHash);
  const now = new Date().toISOString();
  const accountId = ctx.ids.next();
  const userId = ctx.ids.next();
  const base = ctx.config.baseUrl;
  const confirmationToken = input.confirmed ? undefined : randomToken(24);
  // The actor's key pairs (federation/keys.ts): PEM, RSA in the columns Mastodon names.
  const keys = await ctx.newActorKeys();
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.accounts.insert(
      {
        id: accountId,
        username: input.username,
        domain: null,
        uri: `${base}/users/${input.username}`,
        url: `${base}/@${input.username}`,
        inbox_url: `${base}/users/${input.username}/inbox`,
        outbox_url: `${base}/users/${input.username}/outbox`,
        shared_inbox_url: `${base}/inbox`,
        followers_url: `${base}/users/${input.username}/followers`,
        following_url: `${base}/users/${input.username}/following`,
        featured_url: `${base}/users/${input.username}/collections/featured`,
        featured_tags_url: `${base}/users/${input.username}/collections/tags`,
        discoverable: null,
        public_key_pem: keys.rsaPublic,
        private_key_pem: keys.rsaPrivate,
        ed25519_public_key: keys.ed25519Public,
        ed25519_private_key: keys.ed25519Private,
        created_at: now,
        updated_at: now,
      },
      trx,
    );
    await ctx.repos.users.insert(
      {
        id: userId,
        account_id: accountId,
        email: input.email,
        encrypted_password: encrypted,
        role_id: roleId,
        locale: input.locale ?? "en",
        confirmed_at: input.confirmed ? now : null,
        confirmation_token: confirmationToken ? sha256(confirmationToken) : null,
        confirmation_sent_at: confirmationToken ? now : null,
        unconfirmed_email: null,
        approved: input.approved,
        disabled: false,
        reason: input.reason ?? null,
        created_by_application_id: input.applicationId ?? null,
        sign_up_ip: input.signUpIp ?? null,
        current_sign_in_at: null,
        last_sign_in_at: null,
        settings: "{}",
        created_at: now,
        updated_at: now,
      },
      trx,
    );
    // The sign-up address is the first of the addresses moderators see (Admin::Account's `ips`).
    if (input.signUpIp) await ctx.repos.adminAccounts.recordIp(userId, input.signUpIp, now, trx);
    if (input.createdBy) {
      const name = `@${input.username}`;
      await logAction(
        ctx,
        input.createdBy,
        {
          action: "create",
          targetType: "Account",
          targetId: accountId,
          humanIdentifier: name,
          summary: `created ${name}`,
        },
        trx,
      );
    }
  });
  const account = await ctx.repos.accounts.getById(accountId);
  const user = await ctx.repos.users.getById(userId);
  if (!account || !user) throw new Error("account vanished after creation");
  return { account, user, password, confirmationToken };
}
