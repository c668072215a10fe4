import type { AppContext } from "../../context.ts";
import { userLoginProblem } from "../../policies/accounts.ts";
import { cliApplication, issueToken } from "../../services/oauth/tokens.ts";
import type { Output } from "../output.ts";
import type { Command } from "../parse-command.ts";
import { requireLocalUser } from "./accounts.ts";

const PROBLEMS = {
  disabled: "is disabled",
  unconfirmed: "has no confirmed e-mail address",
  pending: "is waiting for approval",
} as const;

/** Prints one access token and nothing else on stdout, so `TOKEN=$(gannet tokens create ...)` works. */
export async function tokensCreate(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "tokens-create" }>,
  io: Output,
): Promise<void> {
  const { account, user } = await requireLocalUser(ctx, cmd.username);
  const app = await cliApplication(ctx);
  const { accessToken } = await issueToken(ctx, { applicationId: app.id, userId: user.id, scopes: cmd.scopes });
  await io.out(accessToken);
  // The token is still made: it starts working as soon as the account is fixed.
  const problem = userLoginProblem(user, account);
  if (problem) await io.err(`warning: ${cmd.username} ${PROBLEMS[problem]}; the token is refused until that changes`);
}
